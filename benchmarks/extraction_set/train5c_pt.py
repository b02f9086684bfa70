# ruff: noqa: E501  (message texts are data: kept on one line each)
"""A new training batch of Portuguese conversations of the extraction evaluation set (ids
`pt-train5c-*`, split `dev`), used to train the extractor's learned stage: Brazilian and
European Portuguese about half each, with speakers from Angola, Moçambique and Cabo Verde,
weighted to coding help with pasted code and errors, CV and writing help, bureaucracy and legal
questions (INSS, Segurança Social, NIF/CPF, MEI), mental health, sport and pets, including group
chats with named speakers. Written blind: without reading the extractor, its tests, the
benchmark or any other conversation of the set; only `turns.py`'s shape was used.
"""

from __future__ import annotations

from typing import Final

from turns import Conversation, by, chat, e, group, u

CONVERSATIONS: Final[tuple[Conversation, ...]] = (
    chat(
        u(
            'oi, to com esse erro no django e nao to entendendo nada\n\nTraceback (most recent call last):\n  File "/home/lucas/loja/manage.py", line 22, in <module>\n    main()\n  File "/home/lucas/loja/manage.py", line 18, in main\n    execute_from_command_line(sys.argv)\n  File "/home/lucas/loja/.venv/lib/python3.11/site-packages/django/core/management/__init__.py", line 442, in execute_from_command_line\n    utility.execute()\n  File "/home/lucas/loja/.venv/lib/python3.11/site-packages/django/db/backends/sqlite3/base.py", line 328, in execute\n    return super().execute(query, params)\ndjango.db.utils.OperationalError: no such table: pedidos_pedido\n\nja rodei o makemigrations 2x'
        ),
        u(
            "rodei o migrate e foi, valeu. btw trabalho como dev backend numa fintech aqui em campinas, em prod a gente usa postgres mas na minha maquina to no sqlite msm",
            e("identity", "backend"),
            e("fact", "Campinas"),
        ),
        u(
            "me explica a diferença entre select_related e prefetch_related usando meu model Pedido -> Cliente"
        ),
        u("agora me manda so o codigo sem explicação"),
    ),
    chat(
        u(
            "olá, mudei-me de lisboa para braga em setembro e ainda não atualizei a morada na segurança social. faço isso na segurança social direta ou tenho de ir a um balcão?",
            e("fact", "Braga", forbid=("Lisboa",)),
        ),
        u(
            "e nas finanças? o NIF fica com a morada antiga se eu nao mudar? é que passo recibos verdes, sou designer gráfica por conta própria",
            e("identity", "designer"),
        ),
        u("ok. quanto tempo costuma demorar a alteração a aparecer no portal?"),
        u(
            "obrigada! escreve-me um email curto para o meu contabilista, o sr. almeida, a pedir que confirme que está tudo certo com a declaração trimestral"
        ),
    ),
    chat(
        u(
            "bom dia. sou angolano, de luanda, e quero melhorar o meu cv para concorrer a vagas em portugal. podes rever?\n\nMANUEL KIALA\nEngenheiro Civil\nLuanda, Angola | +244 923 000 000 | manuel.kiala@email.com\n\nEXPERIÊNCIA\n2019 – presente | Engenheiro de Obra, Construtora Ngola Lda\n- Fiscalização de obras de estradas na província do Bengo\n- Gestão de equipas até 40 pessoas\n2016 – 2019 | Engenheiro Júnior, Mota-Engil Angola\n- Apoio ao planeamento e medições\n\nFORMAÇÃO\nLicenciatura em Engenharia Civil, Universidade Agostinho Neto (2016)\n\nLÍNGUAS\nPortuguês (nativo), Inglês (intermédio), Kimbundu (fluente)",
            e("identity", "angol"),
            e("identity", "civil"),
            e("goal", "Portugal"),
        ),
        u("a parte das línguas, ponho o kimbundu ou não vale a pena para vagas em portugal?"),
        u("e a palavra 'fiscalização' está bem ou em portugal dizem de outra forma?"),
        u("gosto mais da segunda versão do resumo, usa essa e manda tudo junto"),
    ),
    chat(
        u(
            "nao sei bem pq to escrevendo isso aqui mas to muito ansioso essa semana, tenho a prova da OAB no domingo e nao consigo dormir direito",
            e("goal", "OAB"),
        ),
        u(
            "ja faço terapia faz uns 2 anos, minha psicologa ta de ferias agora. tenho diagnostico de TAG desde a faculdade",
            e("fact", "TAG"),
        ),
        u(
            "tem alguma tecnica de respiração que funcione rapido? tipo pra fazer na hora da prova sem ninguem perceber"
        ),
        u("vou tentar a 4-7-8 hj a noite. obrigado de vdd"),
    ),
    chat(
        u(
            "tenho este código em react e o useEffect está a correr em loop infinito, não percebo porquê\n\n```jsx\nimport { useEffect, useState } from 'react';\n\nexport default function Encomendas({ filtros }) {\n  const [dados, setDados] = useState([]);\n  const [pagina, setPagina] = useState(1);\n\n  const params = { ...filtros, pagina };\n\n  useEffect(() => {\n    fetch('/api/encomendas?' + new URLSearchParams(params))\n      .then(r => r.json())\n      .then(setDados);\n  }, [params]);\n\n  return (\n    <ul>\n      {dados.map(d => <li key={d.id}>{d.cliente} - {d.total}€</li>)}\n    </ul>\n  );\n}\n```"
        ),
        u("ah faz sentido, o objeto é novo a cada render. uso o useMemo então?"),
        u(
            "já agora, a partir de agora responde-me sempre com typescript em vez de javascript, o projeto todo está a migrar",
            e("instruction", "typescript"),
        ),
        u("e como tipo o fetch para devolver Encomenda[]?"),
    ),
    chat(
        u(
            "minha gata de 12 anos, a Mel, parou de comer ração seca faz 3 dias, só come sachê. devo me preocupar?",
            e("relationship", "Mel"),
        ),
        u("ela é castrada e ta um pouco acima do peso, o vet falou isso ano passado"),
        u("ok vou levar ela amanha. me ajuda a montar uma lista do que perguntar pro veterinario"),
        u("coloca tb sobre exame de sangue e sobre trocar a ração"),
    ),
    chat(
        u(
            "boa tarde. vivo em maputo e trabalho como contabilista no millennium bim há 5 anos. quero candidatar-me a uma vaga da ONU aqui. podes ajudar com a carta de motivação?",
            e("fact", "Maputo"),
            e("identity", "contabilista"),
            e("fact", "Millennium"),
        ),
        u(
            "aqui está o anúncio:\n\nVACANCY ANNOUNCEMENT\nPosition: Finance Associate (G-6)\nDuty Station: Maputo, Mozambique\nRequirements:\n- Completion of secondary education; university degree in Finance, Accounting or Business Administration desirable\n- Minimum 6 years of progressively responsible experience in finance\n- Knowledge of IPSAS and UMOJA an asset\n- Fluency in English and Portuguese required\n\nDeadline: 15 March"
        ),
        u(
            "tenho licenciatura em contabilidade pela eduardo mondlane e falo inglês fluentemente, mas não conheço o UMOJA. menciono isso ou não?",
            e("fact", "Eduardo Mondlane"),
            e("skill", "ingl"),
        ),
        u("a carta tem de ser em inglês. faz a versão em inglês por favor"),
        u("está muito longa, corta para uma página"),
    ),
    chat(
        u(
            "olá! estou a treinar para a meia maratona de lisboa em março, vai ser a minha primeira. corro 3 vezes por semana. podes fazer-me um plano de 12 semanas?",
            e("goal", "maratona"),
        ),
        u("neste momento faço 10km em 55 minutos mais ou menos"),
        u(
            "tenho uma ligeira tendinite no joelho direito, convém ter cuidado com as séries",
            e("fact", "tendinite"),
        ),
        u("põe o plano numa tabela, de segunda a domingo"),
        u(
            "e o que como antes de um treino longo de manhã? não como carne nem peixe há uns anos",
            e("fact", "carne"),
        ),
    ),
    chat(
        u("como faço pra regularizar cpf suspenso? o meu ta suspenso e eu nem sei pq"),
        u(
            "ah vi aqui que é por falta de declaração de IR. eu fiquei uns anos morando fora, voltei pro brasil ano passado e esqueci completamente disso",
            e("fact", "Brasil"),
        ),
        u("preciso pagar multa?"),
        u("beleza, me faz um passo a passo bem resumido"),
    ),
    group(
        ("Bruna", "Thiago"),
        by(
            "Bruna",
            "gente, alguém sabe se dá pra levar cachorro no avião da azul? quero levar o Paçoca pra casa da minha mãe em floripa no natal",
            e("relationship", "Bruna", "Paçoca", forbid=("usuario",)),
        ),
        by("Thiago", "acho que só na cabine se for pequeno, até 10kg contando a caixa"),
        by("Bruna", "ele tem 14kg kkk é um vira-lata grandão"),
        by(
            "Thiago",
            "eu nunca levaria o Frajola de avião, ele surta até de carro. e sou alérgico a cachorro entao nem vou visitar vcs lol",
            e("relationship", "Thiago", "Frajola", forbid=("usuario",)),
            e("fact", "Thiago", "alérg", forbid=("usuario",)),
        ),
        by(
            "Bruna",
            "assistente, quais companhias levam cachorro grande no porão saindo de guarulhos?",
        ),
    ),
    chat(
        u(
            "tenho um dataframe assim e quero agrupar por mês e somar as vendas\n\n        data   loja  vendas\n0 2024-01-03  porto   120.5\n1 2024-01-17  braga    80.0\n2 2024-02-02  porto   200.0\n3 2024-02-28   faro    45.9\n\ndf.groupby('data').sum() dá-me um por dia"
        ),
        u(
            "dá este erro:\n\nTypeError: Only valid with DatetimeIndex, TimedeltaIndex or PeriodIndex, but got an instance of 'RangeIndex'"
        ),
        u(
            "funcionou com pd.Grouper. quero que o resultado seja uma lista de dicts para mandar para a api"
        ),
        u(
            "btw uso o pycharm num macbook, há algum atalho para correr só a seleção na consola?",
            e("environment", "PyCharm"),
            e("environment", "mac"),
        ),
    ),
    chat(
        u(
            'traduz pro ingles: "Eu moro em Belo Horizonte há dez anos e sou professora de matemática. Tenho dois filhos e adoro cozinhar nos fins de semana." é pra uma amiga que vai se apresentar num intercambio'
        ),
        u("deixa mais informal"),
        u("agora em espanhol tb"),
    ),
    chat(
        u(
            "estou a preparar-me para uma entrevista na sexta. sou analista de dados e quero passar para product manager. age como o recrutador e faz-me perguntas, uma de cada vez",
            e("identity", "analista"),
            e("goal", "product"),
        ),
        u(
            "Priorizaria pelo impacto no cliente e pelo esforço, usava algo como RICE e alinhava com a engenharia antes de fechar o roadmap."
        ),
        u("sê mais duro nas perguntas, estás muito simpático"),
        u("ok para. dá-me feedback sobre as minhas respostas, o que melhorar"),
    ),
    chat(
        u(
            "olá, sou de cabo verde, da ilha de santiago, mas moro em lisboa há 6 anos. no mês passado fui diagnosticado com diabetes tipo 2 e não sei bem o que posso comer",
            e("identity", "Cabo Verde"),
            e("fact", "Lisboa"),
            e("fact", "diabetes"),
        ),
        u("em casa comemos muita cachupa, isso pode ou não?"),
        u("e o grogue? lol é só em festas"),
        u("faz-me uma lista de compras para a semana com coisas baratas do pingo doce"),
    ),
    chat(
        u(
            "help pls\n\nsrc/services/user.service.ts:34:11 - error TS2322: Type 'User | undefined' is not assignable to type 'User'.\n  Type 'undefined' is not assignable to type 'User'.\n\n34     const user: User = users.find(u => u.id === id);\n             ~~~~\n\nFound 1 error in src/services/user.service.ts:34"
        ),
        u("nao quero usar o ! pq o tech lead reclama no review"),
        u("massa. e se eu quiser que a função lance NotFoundException do nest quando nao achar?"),
        u(
            "to aprendendo nest faz pouco tempo, vim do laravel, entao as vezes confundo as coisas",
            e("goal", "Nest"),
            e("skill", "Laravel"),
        ),
    ),
    chat(
        u(
            "acho que estou em burnout. sou enfermeira no hospital de santa maria, faço turnos de 12 horas e já não consigo desligar nem nas folgas",
            e("identity", "enfermeir"),
            e("fact", "Santa Maria"),
        ),
        u("não quero conselhos genéricos tipo 'faz yoga' por favor"),
        u(
            "o meu marido diz que devia meter baixa. como funciona a baixa por doença psicológica em portugal? quem passa o certificado?",
            e("relationship", "marido"),
        ),
        u("e recebo quanto da segurança social nesses dias?"),
        u("obrigada, ajudou mais do que esperava"),
    ),
    chat(
        u(
            "meu irmão tá procurando emprego e pediu pra eu melhorar o cv dele, segue o texto:\n\nJOSÉ CARLOS DA SILVA\nEletricista Predial e Industrial\nRecife - PE\n\nResumo: Profissional com 10 anos de experiência em instalações elétricas, NR-10 e NR-35 em dia.\n\nExperiência:\n- Eletricista, Construtora Moura Dubeux (2018-2024)\n- Auxiliar de eletricista, autônomo (2014-2018)\n\nCursos: Técnico em Eletrotécnica - SENAI",
            e("relationship", "irm"),
        ),
        u("deixa o resumo mais forte, tipo com resultados"),
        u("ele não tem numero de resultado nenhum, nao inventa"),
        u("ficou bom. formata em markdown"),
    ),
    chat(
        u("quem ganhou mais campeonatos, o benfica ou o porto?"),
        u(
            "sou do sporting desde miúdo por isso nem me interessa muito lol, era só curiosidade",
            e("preference", "Sporting"),
        ),
        u("e quantos tem o sporting?"),
    ),
    chat(
        u(
            "saudações. estou a fazer um sistema de gestão escolar em php para a escola onde dou aulas, em benguela, e aparece este erro:\n\nFatal error: Uncaught mysqli_sql_exception: Unknown column 'turma_id' in 'where clause' in C:\\xampp\\htdocs\\escola\\alunos.php:27\nStack trace:\n#0 C:\\xampp\\htdocs\\escola\\alunos.php(27): mysqli->query('SELECT * FROM a...')\n#1 {main}\n  thrown in C:\\xampp\\htdocs\\escola\\alunos.php on line 27",
            e("project", "escolar"),
            e("fact", "Benguela"),
            e("identity", "profess"),
        ),
        u(
            "a tabela é assim:\n\nCREATE TABLE alunos (\n  id INT AUTO_INCREMENT PRIMARY KEY,\n  nome VARCHAR(120) NOT NULL,\n  id_turma INT,\n  data_nasc DATE\n);"
        ),
        u("pois, troquei os nomes. e como evito sql injection nessa query? o id vem do GET"),
        u(
            "uso windows 10 com o xampp, o php é 8.1",
            e("environment", "Windows"),
            e("environment", "XAMPP"),
        ),
    ),
    chat(
        u(
            "corrige minha redação pro enem, tema: desafios para a valorização da herança africana no brasil\n\nA herança africana está presente em diversos aspectos da cultura brasileira, como na culinária, na música e na religião. No entanto, essa contribuição ainda é pouco valorizada, seja pelo racismo estrutural, seja pela falta de abordagem nas escolas. Segundo a Lei 10.639/03, o ensino de história e cultura afro-brasileira é obrigatório, mas na pratica isso nao acontece em muitas instituições. [...]\n\nPortanto, cabe ao Ministério da Educação, em parceria com as escolas, promover formações para professores...",
            e("goal", "ENEM"),
        ),
        u(
            "quanto vc acha que daria de nota? quero tirar mais de 900 esse ano pra passar em medicina na federal",
            e("goal", "medicina"),
        ),
        u("reescreve só a conclusão, com os 5 elementos"),
    ),
    chat(
        u(
            "o meu senhorio quer aumentar a renda 15% a partir de janeiro. isto é legal? o contrato é de 2021"
        ),
        u("moro em almada num T2, pago 750€ por mês", e("fact", "Almada")),
        u(
            "escreve uma carta ao senhorio a contestar, tom educado mas firme. ele chama-se Fernando Lopes"
        ),
        u("assina como Rita Marques, sou eu lol", e("identity", "Rita")),
    ),
    chat(
        u(
            "esse script era pra baixar as notas fiscais do email mas trava no meio\n\nimport imaplib\nimport email\nimport os\n\nIMAP = 'imap.gmail.com'\nUSER = os.environ['MAIL_USER']\nPASS = os.environ['MAIL_PASS']\n\nm = imaplib.IMAP4_SSL(IMAP)\nm.login(USER, PASS)\nm.select('INBOX')\n_, ids = m.search(None, '(SUBJECT \"Nota Fiscal\")')\nfor i in ids[0].split():\n    _, data = m.fetch(i, '(RFC822)')\n    msg = email.message_from_bytes(data[0][1])\n    for part in msg.walk():\n        if part.get_content_type() == 'application/pdf':\n            nome = part.get_filename()\n            with open(os.path.join('notas', nome), 'wb') as f:\n                f.write(part.get_payload(decode=True))\n\nerro:\nTypeError: expected str, bytes or os.PathLike object, not NoneType"
        ),
        u("ah, tem nota sem nome de arquivo. coloca um nome padrão com a data"),
        u(
            "e quero que rode todo dia as 8h. o servidorzinho é ubuntu, cron serve?",
            e("environment", "Ubuntu"),
        ),
        u(
            "eu tenho uma lojinha de roupa e faço tudo sozinha, entao isso vai me salvar mt tempo haha",
            e("fact", "roupa"),
        ),
    ),
    group(
        ("Joana", "Miguel", "Rita"),
        by(
            "Joana",
            "ok malta, jantar de sábado cá em casa. aviso já que deixei a carne desde o verão, agora sou vegetariana, por isso vai ser tudo sem carne",
            e("fact", "Joana", "vegetarian", forbid=("usuario",)),
        ),
        by(
            "Miguel",
            "por mim tudo bem. só não ponham coentros que eu detesto",
            e("preference", "Miguel", "coentr", forbid=("usuario",)),
        ),
        by(
            "Rita",
            "eu levo a sobremesa. assistente, dá-nos uma ideia de prato principal vegetariano para 6 pessoas sem coentros",
        ),
        by("Joana", "e que dê para fazer na véspera, que no sábado só saio às 14h"),
        by(
            "Rita",
            "ah e o meu filho tem alergia a frutos secos, nada de nozes por favor",
            e("relationship", "Rita", "filho", forbid=("usuario",)),
        ),
    ),
    chat(
        u("se eu morasse no japão, quanto precisaria ganhar pra viver bem em tokyo?"),
        u("e em osaka?"),
        u("é só curiosidade kkk vi um video sobre isso ontem"),
    ),
    chat(
        u("fiz git reset --hard sem querer e perdi os commits de hoje, há forma de recuperar?"),
        u(
            "o git reflog mostra isto:\n\n3f2a1c9 (HEAD -> main) HEAD@{0}: reset: moving to HEAD~3\n9b7e4d2 HEAD@{1}: commit: adiciona validação do NIF no formulário\n1c0f8aa HEAD@{2}: commit: corrige cálculo do IVA\n77d3e10 HEAD@{3}: commit: página de faturas"
        ),
        u(
            "salvaste-me o dia. ando a fazer uma app de faturação para pequenos negócios, sozinho, nas horas vagas",
            e("project", "fatura"),
        ),
        u("como valido um NIF português em javascript? quero uma função que devolva true/false"),
    ),
    chat(
        u(
            "olá, sou treinador voluntário de uma equipa de futebol de miúdos sub-12 em nampula. que exercícios posso fazer com poucas bolas?",
            e("identity", "treinador"),
            e("fact", "Nampula"),
        ),
        u("temos 18 miúdos e só 4 bolas lol"),
        u("e o campo é de terra batida, cheio de pedras"),
        u("gosto desses jogos reduzidos, explica melhor o 3x3"),
    ),
    chat(
        u(
            "minha mãe tem 63 anos e contribuiu pro inss por 17 anos, ela ja pode se aposentar por idade?",
            e("relationship", "mãe"),
        ),
        u("ela nunca trabalhou de carteira assinada, pagava como autônoma pelo carnê"),
        u("como ela pede pelo meu inss? ela não sabe mexer no celular, eu vou fazer por ela"),
        u(
            "e eu? tenho 29, comecei a contribuir com 22. quando eu me aposento com essas regras novas?",
            e("identity", "29"),
        ),
    ),
    chat(
        u(
            "preciso de ajuda com o meu primeiro cv. acabei o mestrado em bioquímica em coimbra em julho e ando à procura de estágio em laboratório",
            e("fact", "bioqu"),
            e("goal", "estágio"),
        ),
        u("não tenho experiência profissional, só o estágio curricular no IPO"),
        u(
            "em competências ponho o quê? sei R e um bocado de python, e domino PCR e western blot",
            e("skill", "PCR"),
        ),
        u("mete tudo numa página, formato europass não que é feio"),
    ),
    chat(
        u(
            "adotei um vira-lata de 6 meses semana passada, o nome dele é Biscoito, e ele chora a noite toda. o que eu faço?",
            e("relationship", "Biscoito"),
        ),
        u("ele dorme na área de serviço"),
        u("moro em apartamento pequeno, não tenho quintal nem varanda", e("fact", "apartamento")),
        u("e como ensino ele a fazer xixi no tapete higienico?"),
    ),
    chat(
        u(
            'podes traduzir este texto para inglês? é para o site do alojamento da minha tia na ilha do sal\n\n"Bem-vindos à Casa Morabeza! Somos uma família cabo-verdiana que recebe hóspedes há mais de 15 anos. Os nossos quartos ficam a cinco minutos da praia de Santa Maria e servimos pequeno-almoço com produtos da terra."'
        ),
        u("a minha tia quer que soe acolhedor, não muito formal"),
        u("e em francês também, eles têm muitos hóspedes franceses"),
        u(
            "btw eu falo crioulo, português e inglês mas francês zero, por isso confio em ti lol",
            e("skill", "crioulo"),
        ),
    ),
    chat(
        u(
            "há meses que durmo mal. acordo às 4h e não volto a adormecer. tenho 41 anos, será da idade?",
            e("identity", "41"),
        ),
        u("bebo uns 4 cafés por dia, o último ao lanche"),
        u("não me sugiras comprimidos, quero coisas que possa fazer já"),
        u("faz-me uma rotina de noite simples"),
    ),
    chat(
        u(
            "buildei com eas e o app crasha ao abrir no android, o logcat mostra:\n\nE/AndroidRuntime: FATAL EXCEPTION: main\n    Process: com.padariadoze.app, PID: 12873\n    java.lang.RuntimeException: Unable to load script. Make sure you're either running Metro (run 'npx react-native start') or that your bundle 'index.android.bundle' is packaged correctly for release.\n        at com.facebook.react.bridge.JSBundleLoader$1.loadScript(JSBundleLoader.java:29)\n        at com.facebook.react.bridge.CatalystInstanceImpl.runJSBundle(CatalystInstanceImpl.java:441)\n        at com.facebook.react.ReactInstanceManager$6.run(ReactInstanceManager.java:1011)\n        at java.lang.Thread.run(Thread.java:1012)"
        ),
        u("o profile é development msm, quero um apk de preview pra mandar pro cliente testar"),
        u(
            "sou freela, faço app pra pequenos comércios aqui de goiânia, esse é de uma padaria",
            e("identity", "freel"),
            e("fact", "Goiânia"),
        ),
        u("manda o eas.json completo"),
    ),
    chat(
        u(
            'reescreve este email para ficar mais profissional:\n\n"Boa tarde Dr. Sousa, peço desculpa mas não vou conseguir entregar o relatório até sexta. Tive um problema com os dados do cliente e ainda estou à espera que a equipa de Leiria me mande os ficheiros. Prometo que na terça está pronto. Cumprimentos"'
        ),
        u("mais curto"),
        u("tira o 'prometo', soa infantil"),
    ),
    chat(
        u(
            "boa noite. sou angolana e estou a estudar enfermagem no porto com visto de estudante. posso trabalhar em part-time?",
            e("identity", "angol"),
            e("fact", "enfermagem"),
            e("fact", "Porto"),
        ),
        u("quantas horas por semana?"),
        u("e preciso de NISS? como se pede?"),
        u("obrigada, manda em pontos curtos por favor que estou no telemóvel"),
    ),
    chat(
        u("monta um treino ABC pra hipertrofia, 5x por semana"),
        u(
            "treino faz 2 anos, mas tenho hérnia de disco na L5 entao agachamento livre pesado nao rola",
            e("fact", "hérnia"),
        ),
        u("substitui o stiff por outra coisa"),
        u("odeio esteira, pro cardio prefiro bike", e("preference", "bike")),
    ),
    group(
        ("Pedro", "Inês"),
        by("Pedro", "estamos a pensar adotar um gato. nunca tivemos animais cá em casa"),
        by(
            "Inês",
            "sim, e o nosso apartamento em setúbal tem varanda, mas é num 4º andar",
            e("fact", "Inês", "Setúbal", forbid=("usuario",)),
        ),
        by("Pedro", "assistente, que cuidados temos de ter com redes na varanda?"),
        by(
            "Inês",
            "eu estou em teletrabalho 3 dias por semana por isso o gato não ficava muito tempo sozinho",
            e("fact", "Inês", "teletrabalho", forbid=("usuario",)),
        ),
        by(
            "Pedro",
            "e já agora eu sou alérgico ao pó, há raças menos problemáticas?",
            e("fact", "Pedro", "alérg", forbid=("usuario",)),
        ),
    ),
    chat(
        u(
            "essa query ta demorando 40s no postgres, como otimizo?\n\nSELECT c.nome, COUNT(p.id) AS total_pedidos, SUM(i.valor * i.qtd) AS faturamento\nFROM clientes c\nLEFT JOIN pedidos p ON p.cliente_id = c.id\nLEFT JOIN itens i ON i.pedido_id = p.id\nWHERE p.criado_em >= now() - interval '90 days'\n  AND c.uf IN ('SP','RJ','MG')\nGROUP BY c.nome\nORDER BY faturamento DESC\nLIMIT 50;\n\nEXPLAIN ANALYZE:\nLimit  (cost=982341.22..982341.35 rows=50 width=48) (actual time=40112.331..40112.340 rows=50 loops=1)\n  ->  Sort  (cost=982341.22..983120.10 rows=311552 width=48)\n        ->  HashAggregate  (cost=...)\n              ->  Hash Right Join  (cost=...)\n                    ->  Seq Scan on itens i  (cost=0.00..412331.00 rows=18000000 width=16)"
        ),
        u("tem indice em pedidos.cliente_id ja, em itens.pedido_id não"),
        u("criei, caiu pra 3s. mas o LEFT JOIN com where em p vira inner né?"),
        u("sou DBA jr faz 6 meses, ainda to pegando essas manhas haha", e("identity", "DBA")),
    ),
    chat(
        u("receita de bacalhau à brás para 4"),
        u("sem ovo é possível? a minha filha é alérgica", e("relationship", "filha")),
        u("ok esquece, faço outra coisa. sugere um prato de bacalhau sem ovo"),
    ),
    chat(
        u(
            'tenho uma folha de excel com as vendas da loja e quero uma macro que copie as linhas com estado \'Pago\' para outra folha. fiz isto mas não faz nada:\n\nSub CopiarPagos()\n    Dim ws As Worksheet, dest As Worksheet\n    Dim i As Long, j As Long\n    Set ws = Sheets("Vendas")\n    Set dest = Sheets("Pagos")\n    j = 2\n    For i = 2 To ws.Cells(Rows.Count, 1).End(xlUp).Row\n        If ws.Cells(i, 5).Value = "pago" Then\n            ws.Rows(i).Copy dest.Rows(j)\n            j = j + 1\n        End If\n    Next i\nEnd Sub'
        ),
        u("sim era a maiúscula. como ponho para não distinguir maiúsculas?"),
        u(
            "trabalho com o excel 2016 em português, as fórmulas têm nomes diferentes né?",
            e("environment", "Excel"),
        ),
        u(
            "obrigado mano, aqui em moçambique é difícil encontrar quem ensine estas coisas",
            e("fact", "Moçambique"),
        ),
    ),
    chat(
        u("terminei um namoro de 4 anos mês passado e to bem mal", e("relationship", "namor")),
        u("as vezes acho q foi culpa minha"),
        u(
            "não precisa me mandar procurar terapeuta, eu ja faço terapia toda semana, só quero conversar um pouco",
            e("fact", "terapia"),
        ),
        u("obrigada. acho que vou sair pra caminhar um pouco"),
    ),
    chat(
        u(
            "vou ser pai em maio! como funciona a licença parental para o pai em portugal?",
            e("relationship", "pai"),
        ),
        u(
            "sou trabalhador por conta de outrem numa empresa de software em aveiro",
            e("fact", "Aveiro"),
        ),
        u(
            "e a minha companheira é independente, ela também tem direito?",
            e("relationship", "companheira"),
        ),
        u("faz um resumo com os dias obrigatórios e os opcionais"),
    ),
    chat(
        u(
            "revisa esse resumo do meu tcc de engenharia ambiental, tem limite de 250 palavras\n\nRESUMO\nEste trabalho avalia a qualidade da água do Rio Piracicaba no trecho urbano do município de Piracicaba-SP, a partir de coletas mensais realizadas entre março e setembro de 2023. Foram analisados os parâmetros pH, oxigênio dissolvido, DBO, turbidez e coliformes termotolerantes, comparando-os aos limites da Resolução CONAMA 357/2005. Os resultados indicaram desconformidade em 4 dos 7 pontos amostrados, principalmente quanto a coliformes, o que sugere lançamento de esgoto sem tratamento. [...]",
            e("fact", "ambiental"),
        ),
        u("tá com 280, corta"),
        u("o abstract em inglês tb, por favor"),
        u("minha orientadora pediu pra tirar a voz passiva mas acho que fica estranho em ingles"),
    ),
    chat(
        u(
            "comprei um garmin edge 540 e quero ligá-lo ao strava, como faço?",
            e("environment", "Garmin"),
        ),
        u(
            "já está. agora quero preparar-me para subir a serra da estrela de bicicleta no verão, subo bem mas sou lento",
            e("goal", "Estrela"),
        ),
        u("peso 82kg e faço uns 150km por semana"),
        u("gosto mais de treinar de manhã cedo, antes do trabalho", e("preference", "manh")),
    ),
    chat(
        u("minha amiga mora em lisboa e disse que lá o aluguel ta mais caro q em sp, é verdade?"),
        u("e o salario medio la?"),
        u("ela é enfermeira, ganharia quanto?"),
    ),
    group(
        ("Edson", "Djamila"),
        by(
            "Edson",
            "djamila, manda aí a letra da morna que fizemos para o assistente ver a métrica",
        ),
        by(
            "Djamila",
            '"Na nha terra di sodade / mar ta canta nha nomi / ..." pronto. escrevi em crioulo mas queremos também uma versão em português',
        ),
        by(
            "Edson",
            "eu toco cavaquinho há 20 anos mas a escrever sou zero lol",
            e("skill", "Edson", "cavaquinho", forbid=("usuario",)),
        ),
        by(
            "Djamila",
            "assistente, traduz mantendo as rimas se der. eu vivo em roterdão, por isso depois talvez em neerlandês também",
            e("fact", "Djamila", "Roterd", forbid=("usuario",)),
        ),
    ),
    chat(
        u(
            'a compilar isto em rust dá erro de borrow e não percebo\n\nfn main() {\n    let mut nomes = vec![String::from("ana"), String::from("rui")];\n    let primeiro = &nomes[0];\n    nomes.push(String::from("eva"));\n    println!("{}", primeiro);\n}\n\nerror[E0502]: cannot borrow `nomes` as mutable because it is also borrowed as immutable\n --> src/main.rs:4:5\n  |\n3 |     let primeiro = &nomes[0];\n  |                     ----- immutable borrow occurs here\n4 |     nomes.push(String::from("eva"));\n  |     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ mutable borrow occurs here\n5 |     println!("{}", primeiro);\n  |                    -------- immutable borrow later used here'
        ),
        u("ok clonar resolve mas não é batota?"),
        u(
            "ando a aprender rust há duas semanas depois de uma década de java, o borrow checker está a dar cabo de mim",
            e("goal", "Rust"),
            e("skill", "Java"),
        ),
        u("recomenda-me um livro"),
    ),
    chat(
        u("quero abrir um MEI pra vender bolo no pote, qual CNAE eu uso?", e("goal", "MEI")),
        u("faço bolo faz uns 3 anos pra família e amigos, agora quero vender pra fora"),
        u(
            "e se eu já tenho carteira assinada numa clinica odontologica como recepcionista posso ter MEI junto?",
            e("identity", "recepcionista"),
        ),
        u("ok, e a nota fiscal, sou obrigada a emitir pra pessoa física?"),
    ),
    chat(
        u(
            "estou no 3º ano de medicina na agostinho neto e sinto que não vou conseguir. tenho exame de anatomia daqui a duas semanas e estudo 10h por dia",
            e("fact", "medicina"),
        ),
        u("os meus pais investiram muito nisto, se eu chumbar vou desiludir toda a gente"),
        u("ajuda-me a fazer um horário de estudo realista com pausas"),
        u(
            "ah, e eu só consigo estudar com música, de preferência kizomba baixinho lol",
            e("preference", "kizomba"),
        ),
    ),
    chat(
        u(
            "a partir de agora escreve sempre em português de portugal, nada de 'você' nem gerúndios brasileiros",
            e("instruction", "portugal"),
        ),
        u(
            "preciso de uma carta de apresentação para uma vaga de rececionista num hotel em albufeira. é para a minha sobrinha, ela tem 19 anos e fala inglês e alemão"
        ),
        u("ela trabalhou dois verões num bar de praia"),
        u("está bom, só muda 'dinâmica' que aparece em todo o lado"),
    ),
    chat(
        u(
            'meu docker compose não sobe o container do postgres, fica em restarting:\n\npostgres-1  | initdb: error: directory "/var/lib/postgresql/data" exists but is not empty\npostgres-1  | initdb: detail: It contains a lost+found directory, perhaps due to it being a mount point.\npostgres-1  | initdb: hint: Using a mount point directly as the data directory is not recommended.\npostgres-1 exited with code 1'
        ),
        u(
            "to usando wsl2 no windows 11, o volume ta montado num disco externo",
            e("environment", "WSL"),
        ),
        u("deu certo com o PGDATA num subdir, thanks"),
        u(
            "btw prefiro respostas em bullet points, facilita pra mim ler",
            e("instruction", "bullet"),
        ),
    ),
    chat(
        u(
            "o meu cão, um labrador de 9 anos chamado Tejo, começou a coxear da pata de trás ontem",
            e("relationship", "Tejo"),
        ),
        u("não tem nada visível na pata, já vi entre os dedos"),
        u(
            "a clínica aqui no porto só tem vaga para segunda. espero ou vou às urgências?",
            e("fact", "Porto"),
        ),
        u("ok. e posso dar-lhe brufen entretanto?"),
    ),
    group(
        ("Marcos", "Letícia", "Caio"),
        by("Marcos", "galera a pelada de quinta vai ser no society da vila mariana msm?"),
        by(
            "Letícia",
            "sim. eu chego atrasada pq saio da faculdade de direito às 19h",
            e("fact", "Letícia", "direito", forbid=("usuario",)),
        ),
        by("Caio", "eu to com o tornozelo zoado ainda, vou de goleiro"),
        by(
            "Marcos",
            "assistente, monta 2 times equilibrados com esses nomes: Marcos, Letícia, Caio, Bia, Rafa, Dudu, Gabi, Leo, Nina, Pedro. o Caio é goleiro de um deles",
        ),
        by(
            "Caio",
            "e coloca o Marcos no time adversário do meu que ele é corintiano e eu sou palmeirense kkk",
            e("preference", "Caio", "palmeir", forbid=("usuario",)),
        ),
    ),
    chat(
        u(
            'revê este texto para o meu blog, escrevo sobre cozinha moçambicana:\n\n"A matapa é um dos pratos mais tradicionais de Moçambique. Feita com folhas de mandioca pisadas, amendoim e leite de coco, é servida geralmente com xima ou arroz. A minha avó fazia-a todos os domingos em Inhambane e o cheiro enchia a casa inteira."',
            e("project", "blog"),
        ),
        u("corrige só os erros, não mudes o estilo"),
        u("achas que devia escrever o blog também em inglês?"),
    ),
    chat(
        u(
            "vi essa vaga, vale a pena?\n\n[VAGA] Desenvolvedor(a) Full Stack Pleno — Remoto\nStack: Node.js, React, AWS\nContratação: PJ\nSalário: R$ 7.000 a R$ 9.000\nRequisitos: 3+ anos de experiência, inglês avançado, disponibilidade para reuniões às 22h (cliente nos EUA)\nBenefícios: Day off no aniversário"
        ),
        u("hoje ganho 6.500 CLT numa agencia em curitiba", e("fact", "Curitiba")),
        u("faz a conta de quanto preciso ganhar como PJ pra empatar com o CLT"),
        u(
            "tenho 4 anos com node e uns 2 com react, mas o ingles é meio travado",
            e("skill", "Node"),
            e("skill", "React"),
        ),
    ),
    chat(
        u(
            "fui diagnosticada com doença celíaca. que marcas de massa sem glúten há no continente?",
            e("fact", "celíac"),
        ),
        u("e cerveja? lol"),
        u("pão sem glúten detesto, é sempre seco e esfarelado", e("preference", "pão")),
        u(
            "faz um plano de jantares para a semana, somos só eu e o meu namorado",
            e("relationship", "namorado"),
        ),
    ),
    chat(
        u(
            "oi! daqui pra frente me chama de Rafa e responde sempre bem direto, sem enrolação",
            e("identity", "Rafa"),
            e("instruction", "diret"),
        ),
        u("qual a melhor forma de guardar senha no banco? bcrypt ou argon2?"),
        u("e em node qual lib?"),
    ),
    chat(
        u(
            "estou a tentar fazer uma regex que apanhe códigos postais portugueses tipo 4000-123 mas está a apanhar também números de telefone"
        ),
        u("a minha é \\d{4}-\\d{3}"),
        u("quero que só aceite se estiver sozinho na linha"),
        u("perfeito, e em python com re.findall?"),
    ),
    chat(
        u(
            'resume esse email que recebi do condominio:\n\n"Prezados moradores, informamos que a partir de 01/03 a taxa condominial passará para R$ 890,00, conforme aprovado em assembleia. Eu, como síndico, reforço que as obras da fachada começam em abril e que a garagem ficará parcialmente interditada. Peço a compreensão de todos. Att, Carlos Henrique - Síndico"'
        ),
        u("responde ele perguntando se a garagem do bloco B tb vai fechar, educado"),
        u("mais curto"),
    ),
    chat(
        u("qual e a capital da mongolia"),
        u("e quantos habitantes tem?"),
        u("curioso. conta-me uma curiosidade sobre o pais"),
        u("haha obrigado, boa noite"),
    ),
    chat(
        u(
            "se eu abrisse uma padaria em luanda, quanto precisava de investimento inicial mais ou menos?"
        ),
        u("e se fosse no lubango?"),
        u("faz uma tabela comparativa com custos de renda, equipamento e pessoal"),
    ),
    chat(
        u(
            "preciso de pedir o NIF para a minha namorada brasileira que vem viver comigo em portugal, ela ainda está em são paulo. ela consegue tratar disso de lá?",
            e("relationship", "namorada"),
        ),
        u("e precisa de representante fiscal? li que deixou de ser obrigatório"),
        u("faz-me uma lista dos documentos, ela vai tratar pelo e-balcão"),
    ),
    chat(
        u(
            "me ajuda a escrever um post de linkedin anunciando que sai da Ambev e comecei na Natura como analista de marketing? quero algo leve, sem textão motivacional",
            e("fact", "Natura", forbid=("Ambev",)),
            e("identity", "marketing"),
        ),
        u("tira os emojis de foguete"),
        u("tá muito puxa-saco da empresa nova, deixa mais neutro"),
        u("perfeito, vou postar segunda"),
    ),
    chat(
        u(
            "tenho este teste em jest a falhar e não faço ideia porquê\n\n  ● calcularIVA › aplica taxa reduzida\n\n    expect(received).toBe(expected) // Object.is equality\n\n    Expected: 6.36\n    Received: 6.359999999999999\n\n      12 |   it('aplica taxa reduzida', () => {\n      13 |     const r = calcularIVA(106, 'reduzida');\n    > 14 |     expect(r).toBe(6.36);\n         |               ^\n      15 |   });\n\n      at Object.<anonymous> (src/__tests__/iva.test.ts:14:15)"
        ),
        u("uso toBeCloseTo então? ou arredondo na função?"),
        u("quero a função a devolver sempre cêntimos inteiros, mostra como"),
    ),
    chat(
        u(
            "escreve um poema curto sobre saudade, na voz de um pescador da ilha de são vicente que diz 'eu nasci no mar e no mar hei de morrer'"
        ),
        u("mais triste"),
        u("agora uma versão rimada, quatro quadras"),
    ),
    chat(
        u(
            "bom dia. a minha mãe faleceu em janeiro e eu sou o filho mais velho, tenho de tratar da habilitação de herdeiros. por onde começo?",
            e("relationship", "mãe"),
        ),
        u("ela tinha uma casa em viseu e uma conta na cgd"),
        u("e o imposto do selo, quem paga?"),
        u("desculpa as perguntas todas, não tenho cabeça para isto"),
    ),
)
