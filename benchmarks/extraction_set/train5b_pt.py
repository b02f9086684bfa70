# ruff: noqa: E501  (message texts are data: kept on one line each)
"""A new training batch of Portuguese conversations of the extraction evaluation set (ids `pt-train5b-*`, split `dev`), used to train the extractor's learned stage: mostly Brazilian Portuguese from the North, Northeast and South (Belém, Recife, Salvador, Fortaleza, Porto Alegre, Curitiba) with informal spelling and voice-to-text run-ons, and about a third European Portuguese; small business, MEI, Pix, church, motherhood, ENEM and vestibular, health and apps, with pasted code, tracebacks, e-mails, job posts, essays, role-play, text to translate or proofread, hypotheticals, talk about other people and four group conversations. Written blind: without reading the extractor, its tests, the benchmark or any other conversation of the set; only `turns.py`'s shape was used."""

from __future__ import annotations

from typing import Final

from turns import Conversation, by, chat, e, group, u

CONVERSATIONS: Final[tuple[Conversation, ...]] = (
    chat(
        u(
            "oi boa tarde, eu tenho um pontinho de venda de acai aqui em belem no bairro da pedreira faz uns 3 anos e queria abrir mei pra ficar certinho, como faz? tem q pagar alguma coisa pra abrir?",
            e("fact", "belem"),
        ),
        u("e o das mensal ta quanto esse ano? pra comercio"),
        u("blz e se eu passar do limite de faturamento oq acontece, pq no verao vende mt"),
        u("vlw mano tmj"),
    ),
    chat(
        u(
            "mds to desesperada minha filha de 8 meses nao quer comer nada solido so quer o peito, é normal?? aqui em recife o pediatra do plano so tem vaga mes que vem",
            e("relationship", "filha"),
            e("fact", "recife"),
        ),
        u("ela ja tem 2 dentinhos e ta mamando livre demanda ainda"),
        u("faz uma lista de papinha salgada pra essa idade pfv, sem sal sem acucar"),
        u("obg demais ❤"),
    ),
    chat(
        u(
            "olá, estou a tentar pôr isto a correr e dá-me este erro, já não sei o que fazer:\n\nTraceback (most recent call last):\n  File \"/Users/ricardo/dev/faturas/app.py\", line 3, in <module>\n    from flask_sqlalchemy import SQLAlchemy\nModuleNotFoundError: No module named 'flask_sqlalchemy'\n\njá fiz pip install flask-sqlalchemy e diz que está instalado"
        ),
        u("uso python 3.11 num macbook m1, se isso interessar", e("environment", "mac")),
        u("era isso, estava a correr com o python do sistema e não com o do venv. obrigado!"),
    ),
    chat(
        u(
            "boa noite irmao, preciso de um texto curto pra ler na abertura do culto de domingo sobre gratidao, eu sou lider do ministerio de jovens la na igreja batista do meu bairro aqui em salvador",
            e("identity", "jovens"),
            e("fact", "salvador"),
        ),
        u("ta grande, quero uns 2 minutos de leitura no maximo"),
        u("coloca um versiculo de salmos no inicio"),
        u("perfeito deus abencoe"),
    ),
    chat(
        u(
            "tenho 17 anos e vou fazer o enem esse ano, quero passar em medicina na ufc, me monta um cronograma de estudos pfv",
            e("identity", "17"),
            e("goal", "medicina"),
        ),
        u(
            "eu trabalho de tarde na loja de pecas do meu tio entao so da pra estudar de manha e a noite",
            e("fact", "tio"),
        ),
        u("fisica eu sou pessima kkkk socorro"),
        u("pode colocar redacao 2x por semana"),
        u("valeu!!"),
        u(
            "qual a melhor forma de estudar pro enem pelo celular? prefiro mil vezes videoaula do que ler pdf, nao consigo me concentrar lendo na tela",
            e("preference", "video"),
        ),
        u("tem canal bom de quimica no youtube?"),
        u("valeu"),
    ),
    chat(
        u(
            'traduz para inglês por favor: "Caro Sr. Thompson, escrevo-lhe para confirmar a minha presença na conferência de Berlim em março. Sou engenheira de software há doze anos e lidero uma equipa de oito pessoas em Lisboa. Com os melhores cumprimentos, Marta Lopes"'
        ),
        u("o fecho está pouco formal, muda"),
        u("ok obrigada"),
    ),
    chat(
        u(
            "bah, to integrando pix na minha loja virtual de erva-mate, o backend é django, qual api vale mais a pena, mercado pago ou efi?",
            e("project", "erva"),
            e("environment", "django"),
        ),
        u(
            "tentei assim e da 401 sempre:\n\n```python\nimport requests\nresp = requests.post(\n    'https://pix.api.efipay.com.br/oauth/token',\n    auth=(CLIENT_ID, CLIENT_SECRET),\n    json={'grant_type': 'client_credentials'},\n    cert='certificado.pem',\n)\nprint(resp.status_code, resp.text)\n```"
        ),
        u("era o certificado, tava usando o de homologacao na url de producao kkkk"),
        u(
            "outra coisa, daqui pra frente me manda os exemplos sempre em python, nada de javascript",
            e("instruction", "python"),
        ),
    ),
    chat(
        u(
            "fui diagnosticado com diabetes tipo 2 semana passada e to meio perdido, o que posso comer no cafe da manha?",
            e("fact", "diabet"),
        ),
        u("aveia nao da, nao suporto nem o cheiro", e("preference", "aveia")),
        u("e pao integral pode?"),
        u(
            "o medico passou metformina 500 duas vezes ao dia, tem que ser junto com a comida?",
            e("fact", "metformina"),
        ),
    ),
    chat(
        u(
            "Quero treinar para entrevistas. Age como um recrutador de uma empresa de tecnologia em Lisboa e faz-me uma entrevista para júnior de frontend, uma pergunta de cada vez."
        ),
        u(
            "(vou responder como um candidato inventado) Olá, chamo-me Tiago, tenho 23 anos, terminei o curso no ISEL o ano passado e tenho feito projetos pessoais em React."
        ),
        u("dá-me feedback sobre esta resposta antes da próxima pergunta"),
        u("próxima"),
    ),
    chat(
        u(
            "sou manicure e atendo em casa, faco unha em gel e fibra, me ajuda a fazer uma legenda pro insta anunciando promocao de fim de ano?",
            e("identity", "manicure"),
        ),
        u("coloca emoji e hashtag de belem"),
        u("menor"),
        u("amei"),
    ),
    group(
        ("Jéssica", "Paulo"),
        by(
            "Jéssica",
            "gente a gente precisa fechar o cardapio do bazar da igreja, e lembrando q eu sou alergica a camarao entao nada de vatapa com camarao pfv kkk",
            e("fact", "Jessica", "camar", forbid=("usuario",)),
        ),
        by(
            "Paulo",
            "de boa, o bolo de macaxeira fica comigo, sou confeiteiro ne",
            e("identity", "Paulo", "confeit", forbid=("usuario",)),
        ),
        by("Jéssica", "pergunta pro chat quanto cobrar a fatia"),
        by(
            "Paulo",
            "quanto cobrar por fatia de bolo num bazar beneficente em fortaleza? o povo aqui nao paga caro",
        ),
    ),
    chat(
        u(
            'podes rever este texto? é uma composição da escola da minha filha: "No verão passado fui a Espanha com os meus avós. Eu adoro nadar e quando for grande quero ser bióloga marinha porque gosto muito de golfinhos."',
            e("relationship", "filha"),
        ),
        u("corrige só os erros, não mudes o estilo dela que ela tem 9 anos"),
        u("obrigado"),
    ),
    chat(
        u(
            "entao assim eu vendo acaraje aqui no rio vermelho faz uns 6 anos ja junto com minha mae e agora os cliente tao pedindo nota fiscal e eu nao sei emitir eu ja sou mei mas nunca emiti nota nenhuma como que faz isso pelo celular mesmo",
            e("identity", "acaraj"),
        ),
        u("é no app nfse nacional?"),
        u("nao achei a opcao de servico, eu vendo comida, nao é servico ne"),
        u("ok obrigada meu amor"),
    ),
    chat(
        u(
            "estou a fazer o mestrado em engenharia biomédica em Coimbra e preciso de estruturar a revisão de literatura da tese, o tema é sensores de glicose não invasivos",
            e("fact", "biom"),
            e("project", "glicose"),
        ),
        u("quero a estrutura em tópicos, sem texto corrido"),
        u(
            "e as referências em APA 7, sempre que me deres referências, que é o que o meu orientador exige",
            e("instruction", "apa"),
        ),
        u("fixe, obrigado"),
    ),
    chat(
        u("se eu morasse no canada quanto eu ia ganhar como eletricista? so curiosidade kkk"),
        u("e em portugal?"),
        u(
            "mas falando serio, sou eletricista predial faz 10 anos aqui em fortaleza, vale a pena tentar ir pra portugal?",
            e("identity", "eletricist"),
            e("skill", "10"),
            e("fact", "fortaleza"),
        ),
        u("como faz pra validar meu curso tecnico do senai la"),
    ),
    chat(
        u(
            "meu app flutter de delivery da erro quando builda no android:\n\nFAILURE: Build failed with an exception.\n\n* What went wrong:\nExecution failed for task ':app:checkDebugAarMetadata'.\n> A failure occurred while executing com.android.build.gradle.internal.tasks.CheckAarMetadataWorkAction\n   > The minCompileSdk (34) specified in a\n     dependency's AAR metadata (META-INF/com/android/build/gradle/aar-metadata.properties)\n     is greater than this module's compileSdkVersion (android-33).\n\nBUILD FAILED in 41s",
            e("project", "delivery"),
        ),
        u("onde fica esse compileSdk? no build.gradle do app ou do projeto?"),
        u(
            "deu certo!! btw eu uso vscode no windows, tem atalho pra hot reload?",
            e("environment", "vscode"),
            e("environment", "windows"),
        ),
        u("vlw"),
    ),
    chat(
        u(
            "a minha irmã mudou-se para Berlim em janeiro e está com dificuldades no alemão, que app lhe recomendas?",
            e("relationship", "irm"),
        ),
        u("ela é designer e tem pouco tempo, trabalha imenso"),
        u(
            "e para mim, que só falo português e inglês, valia a pena aprender alemão também?",
            e("skill", "ingl"),
        ),
        u("ok"),
    ),
    chat(
        u(
            "meu cachorro, o Thor, um vira-lata de 4 anos, ta vomitando desde ontem de noite, o que pode ser?",
            e("relationship", "Thor"),
        ),
        u("ele comeu osso de churrasco domingo, meu cunhado que deu"),
        u("vou levar no vet amanha cedo"),
        u("obg"),
    ),
    chat(
        u(
            "melhora essa vaga pra eu postar no linkedin, sou eu que cuido do rh aqui na empresa:\n\nVAGA: Auxiliar administrativo\nEmpresa: Distribuidora Pinheiro Ltda\nLocal: Curitiba - CIC\nRequisitos: ensino medio completo, excel basico, cnh B\nBeneficios: VR, VT, plano de saude apos 90 dias\nHorario: seg a sex 8h as 17h48\nEnviar curriculo para rh@distribuidorapinheiro.com.br",
            e("identity", "rh"),
            e("fact", "pinheiro"),
        ),
        u("tira os emoji"),
        u("ta otimo"),
    ),
    chat(
        u(
            "a partir de agora responde-me sempre em português de Portugal, nada de brasileiro, fico doido com o 'você' e o 'arquivo'",
            e("instruction", "portugal"),
        ),
        u("como se diz 'deploy' sem anglicismos?"),
        u("lol ninguém diz isso"),
    ),
    chat(
        u(
            "to gravida de 20 semanas do segundo e to com uma azia q nao passa, o que posso tomar sem fazer mal pro bebe?",
            e("fact", "gravid"),
        ),
        u(
            "meu mais velho tem 3 anos e ja ta com ciume da barriga kkk como preparo ele pra chegada do irmao",
            e("relationship", "filh"),
        ),
        u("obrigada viu"),
    ),
    chat(
        u(
            'quero que a fórmula devolva o valor da coluna C quando a B diz "pago", senão fica vazio'
        ),
        u("prefiro com PROCX em vez de PROCV"),
        u("ainda dá #N/D nalgumas linhas"),
        u(
            "resolvido, tinha espaços no fim. já agora, no trabalho o excel está em inglês, dá-me a versão com XLOOKUP",
            e("environment", "excel"),
        ),
    ),
    chat(
        u(
            "meu filho vai prestar vestibular pra direito na ufba no fim do ano e ele é muito inseguro, trava na hora da prova, como posso ajudar ele?",
            e("relationship", "filho"),
        ),
        u("ele estuda no colegio estadual de manha e faz cursinho popular a noite"),
        u("valeu, vou conversar com ele"),
        u("minha amiga mora em manaus e ta pensando em fazer enfermagem, a ufam é boa?"),
        u("ela trabalha de dia, tem curso noturno la?"),
        u("vou mandar pra ela, vlw"),
    ),
    chat(
        u(
            "quero aprender ingles de vdd esse ano pra conseguir um job remoto, tipo customer support pra empresa gringa, me da um plano ai",
            e("goal", "ingl"),
        ),
        u("tenho uns 40 min por dia so, pq pego 2 onibus"),
        u(
            "ah e sou de fortaleza mas moro em sao paulo faz 2 anos, se tiver algum curso gratuito aqui pode falar",
            e("identity", "fortaleza"),
            e("fact", "paulo"),
        ),
        u("ok bora"),
    ),
    group(
        ("Inês", "Duarte"),
        by(
            "Inês",
            "vamos ao Gerês no fim de semana? eu levo a tenda, e como sou vegetariana trato eu da minha comida",
            e("fact", "Ines", "vegetarian", forbid=("usuario",)),
        ),
        by("Duarte", "bora. pede ao assistente um trilho de dificuldade média perto da Pedra Bela"),
        by(
            "Duarte",
            "ah e nada de descidas muito íngremes, tenho o joelho esquerdo lixado desde o futebol",
            e("fact", "Duarte", "joelho", forbid=("usuario",)),
        ),
        by("Inês", "pronto, então um trilho com pouca descida, circular, até 12 km"),
    ),
    chat(
        u(
            'recebi essa msg no zap: "Olá, aqui é da central do seu banco, seu Pix foi bloqueado por suspeita de fraude, clique no link para desbloquear: bit.ly/desbloq-pix" é golpe ne?'
        ),
        u("minha vo quase caiu num parecido ontem, mandou 300 reais"),
        u("como bloqueio e denuncio esse numero no meu iphone?", e("environment", "iphone")),
        u(
            'reescreve mais bonito pra eu colocar no cartao: "mae obrigado por tudo, sem vc eu nao seria nada, te amo"'
        ),
        u("mais emocionante"),
        u("ta bom assim"),
    ),
    chat(
        u(
            "fui contabilista oito anos, em setembro despedi-me e entrei num bootcamp de programação porque quero mesmo mudar de área e trabalhar como programador",
            e("goal", "program"),
        ),
        u(
            "estou a fazer um site de receitas como projeto final, em React, e o fetch não devolve nada:\n\n```js\nfunction Receitas() {\n  const [dados, setDados] = useState([]);\n  useEffect(() => {\n    const r = fetch('/api/receitas').json();\n    setDados(r);\n  }, []);\n  return <ul>{dados.map(d => <li key={d.id}>{d.nome}</li>)}</ul>;\n}\n```\nTypeError: fetch(...).json is not a function",
            e("project", "receitas"),
        ),
        u("ah faltava o await. obrigado"),
    ),
    chat(
        u(
            "escreve um email formal pro meu fornecedor de farinha cobrando uma entrega atrasada, eu tenho uma padaria pequena aqui no portao em curitiba",
            e("identity", "padaria"),
        ),
        u("o pedido é o 4589, era pra ter chegado dia 10"),
        u("ficou agressivo demais, suaviza"),
        u("obg"),
    ),
    chat(
        u(
            "sai da Gerdau mes passado, agora to na Randon em caxias, continuo como engenheiro de qualidade, me ajuda a atualizar o linkedin?",
            e("fact", "randon", forbid=("gerdau",)),
            e("identity", "qualidade"),
        ),
        u(
            "escreve o resumo em primeira pessoa, tipo 'sou engenheiro de qualidade com experiencia em...'"
        ),
        u("tira a parte de 'apaixonado por' q é brega demais kkk"),
    ),
    chat(
        u(
            'o que quer dizer "Tudo vale a pena se a alma não é pequena"? é para um trabalho de português do 12.º'
        ),
        u("quem escreveu e em que livro?"),
        u("traduz para inglês mantendo a rima se der"),
    ),
    chat(
        u(
            "minha mae tem pressao alta e mora sozinha em ananindeua, quero colocar um lembrete de remedio no celular dela que é android",
            e("relationship", "mae"),
        ),
        u("qual app é mais facil pra idoso"),
        u("ela nao sabe ler direito, tem algum que avisa com voz?"),
    ),
    chat(
        u(
            "fiz esse script pra controlar o estoque da minha lojinha de roupa feminina mas ta dando erro\n\nimport pandas as pd\ndf = pd.read_excel('estoque.xlsx')\ndf['total'] = df['qtd'] * df['preco']\nprint(df.groupby('categoria')['total'].sum())\n\nTraceback (most recent call last):\n  File \"estoque.py\", line 3, in <module>\n    df['total'] = df['qtd'] * df['preco']\nKeyError: 'qtd'",
            e("identity", "roupa"),
        ),
        u("as coluna tao escrita 'Qtd.' com ponto e 'Preço' com acento"),
        u("funcionou! agora quero que o total saia formatado em real, tipo R$ 1.234,50"),
        u("perfeito"),
    ),
    chat(
        u(
            "vivo em Almada e trabalho no Parque das Nações, compensa trocar o carro pelo barco mais metro?",
            e("fact", "almada"),
        ),
        u("o passe Navegante metropolitano cobre o barco do Seixal e de Cacilhas?"),
        u("ok e quanto custa por mês"),
    ),
    chat(
        u(
            'corrige minha redacao do enem e da nota por competencia:\n\nA persistência da violência contra a mulher no Brasil\n\nNa obra "Quarto de Despejo", Carolina Maria de Jesus relata a dura realidade das mulheres periféricas. Nesse sentido, a violência contra a mulher ainda persiste no Brasil, seja pela cultura machista, seja pela ineficiência do Estado. Eu, como cidadã, acredito que é preciso mudar isso.\n\nEm primeiro lugar, ...\n\nPortanto, cabe ao Ministério da Educação, em parceria com as escolas, promover palestras...'
        ),
        u("720? o que falta pra chegar nos 900"),
        u(
            "minha meta é tirar 900 na redacao esse ano, to treinando uma por semana",
            e("goal", "900"),
        ),
        u("blz"),
    ),
    group(
        ("Rayane", "Thiago", "Bia"),
        by("Rayane", "gnt vamos montar a lista do cha de bebe da Bia aqui mesmo"),
        by(
            "Bia",
            "eu to de 7 meses ja, é menina e vai se chamar Helena 🥹",
            e("fact", "Bia", "gravid", forbid=("usuario",)),
            e("relationship", "Bia", "Helena", forbid=("usuario",)),
        ),
        by(
            "Thiago",
            "eu fico com as bebidas, sou garcom entao sei bem quanto rende kkk",
            e("identity", "Thiago", "garcom", forbid=("usuario",)),
        ),
        by("Rayane", "chat faz uma lista de comes e bebes pra 30 pessoas, coisa barata"),
    ),
    chat(
        u(
            "não gosto nada de respostas cheias de listas e negritos, escreve-me em parágrafos normais, por favor",
            e("instruction", "paragraf"),
        ),
        u("explica-me a diferença entre o IRS automático e a entrega manual"),
        u(
            "eu passo recibos verdes, sou tradutor freelancer, isso muda alguma coisa?",
            e("identity", "tradutor"),
        ),
        u("ok percebi"),
        u("se eu ganhasse o euromilhões quanto pagava de imposto em Portugal?"),
        u("e se fosse um prémio ganho em Espanha, sendo eu português?"),
        u("ok era só curiosidade, o meu colega jura que não se paga nada"),
    ),
    chat(
        u(
            "larguei o vscode, agora to no neovim, me passa uma config basica de lsp pra typescript?",
            e("environment", "neovim", forbid=("vscode",)),
        ),
        u("uso o lazy.nvim como gerenciador"),
        u("da erro: module 'lspconfig' not found"),
        u("resolvido, tinha esquecido de rodar o :Lazy sync"),
    ),
    chat(
        u(
            "me da uma receita de pato no tucupi pro almoco do cirio, mas sem jambu pq eu detesto aquela tremedeira na boca kkkk",
            e("preference", "jambu"),
        ),
        u("pra 10 pessoas"),
        u("com quantos dias de antecedencia compro o tucupi?"),
    ),
    chat(
        u(
            "o meu pai é doente pelo Porto, que prenda lhe posso dar nos 70 anos?",
            e("relationship", "pai"),
        ),
        u("camisola já tem umas cinco lol"),
        u("gosto da ideia da visita ao museu do estádio"),
        u(
            "faz-me uma playlist para um jantar cá em casa no sábado, gosto muito de fado mas dos mais recentes, Carminho, Gisela João, essa onda",
            e("preference", "fado"),
        ),
        u("mete também umas brasileiras, MPB calminha"),
        u("uns 2 horas no total"),
    ),
    chat(
        u(
            "to desenvolvendo um app de agendamento pra barbearia, chama CorteJá, uso firebase com react native, como faço notificacao push?",
            e("project", "corte"),
            e("environment", "firebase"),
        ),
        u("funciona no ios tb?"),
        u("eu nao tenho mac, so um notebook lenovo com ubuntu", e("environment", "ubuntu")),
        u("entendi, vou ver esse eas build"),
    ),
    chat(
        u(
            "a paz do senhor, sou pastora ha 12 anos numa igreja pequena em lauro de freitas e preciso de um esboco de pregacao sobre ansiedade pra quarta",
            e("identity", "pastor"),
            e("skill", "12"),
            e("fact", "lauro"),
        ),
        u("com 3 pontos e aplicacao pratica em cada"),
        u("acrescenta uma ilustracao com agricultura, o povo daqui é muito do interior"),
        u("deus te abencoe"),
    ),
    chat(
        u(
            "me responde sempre curto e direto sem enrolacao, na maioria das vezes to lendo no celular dentro do onibus",
            e("instruction", "curt"),
        ),
        u("diferenca entre cdb e tesouro selic"),
        u("qual rende mais com 5 mil por 1 ano"),
        u("mano me explica oq é esse tal de open finance, meu banco ta pedindo pra autorizar"),
        u("é seguro?"),
        u("e se eu revogar depois, perde alguma coisa?"),
    ),
    group(
        ("Rita", "Nuno"),
        by(
            "Rita",
            "Nuno pergunta-lhe como funciona o IRS Jovem, eu acabei a licenciatura em Aveiro em julho",
            e("fact", "Rita", "aveiro", forbid=("usuario",)),
        ),
        by(
            "Nuno",
            "ok. eu já não tenho direito, fiz 31 em maio",
            e("identity", "Nuno", "31", forbid=("usuario",)),
        ),
        by("Rita", "lol velho"),
        by(
            "Nuno",
            "pergunta: quem começou a trabalhar em setembro depois da licenciatura tem IRS Jovem logo no primeiro ano?",
        ),
    ),
    chat(
        u(
            "entao eu voltei a trabalhar agora depois da licenca maternidade e to tirando leite no trabalho mas o freezer da empresa é compartilhado e o pessoal fica reclamando, eu sou atendente no call center da claro aqui em recife, tenho direito a alguma coisa?",
            e("identity", "atendent"),
            e("fact", "claro"),
        ),
        u("tipo sala de amamentacao é obrigatoria por lei?"),
        u("faz um texto educado pra eu mandar pro rh"),
        u("obg amiga"),
    ),
    chat(
        u(
            "tenho esta query lenta:\n\nSELECT c.nome, SUM(e.valor)\nFROM clientes c\nJOIN encomendas e ON e.cliente_id = c.id\nWHERE e.data > '2024-01-01'\nGROUP BY c.nome;\n\nquero que corra em menos de 1 segundo, a tabela tem uns 8 milhões de linhas"
        ),
        u("a base de dados da empresa é postgres 15", e("environment", "postgres")),
        u("já tem índice no cliente_id"),
        u("o segundo plano é melhor, fico com esse"),
    ),
    chat(
        u(
            "vou pra floripa no feriado e como sou celiaca preciso de restaurante sem gluten de confianca la, me indica?",
            e("fact", "celiac"),
        ),
        u("e padaria? queria tomar um cafe da manha decente pelo menos um dia"),
        u("valeu"),
        u(
            "me indica uma serie coreana parecida com pousando no amor? amo dorama de romance mas nao curto nada de terror nem zumbi",
            e("preference", "dorama"),
            e("preference", "terror"),
        ),
        u("ja vi essa"),
        u("tem na netflix?"),
        u("vou comecar hj kkk obg"),
    ),
    chat(
        u(
            "toco violao faz uns 5 anos mas so de ouvido, vendo cifra, quero aprender a ler partitura, por onde comeco?",
            e("skill", "viol"),
            e("goal", "partitura"),
        ),
        u("tenho um tecladinho casio em casa, ajuda?"),
        u("blz"),
    ),
    chat(
        u(
            "tenho duas gatas, a Pipoca e a Mel, e a Mel comecou a fazer xixi fora da caixa do nada",
            e("relationship", "Pipoca"),
            e("relationship", "Mel"),
        ),
        u("a areia é a mesma de sempre e a caixa ta no mesmo lugar"),
        u("ela é castrada sim, tem 5 anos"),
    ),
    chat(
        u(
            'melhora este resumo do CV do meu namorado, ele vai concorrer a uma vaga em Londres:\n\n"Sou técnico de redes com 6 anos de experiência em Cisco e Fortinet. Vivo em Setúbal, falo inglês fluente e tenho certificação CCNA."',
            e("relationship", "namorad"),
        ),
        u("mais curto e em inglês"),
        u("ótimo, obrigada"),
    ),
    chat(
        u(
            "parei de comer carne vermelha faz 3 meses, agora so frango, ovo e peixe, me monta um cardapio semanal barato?",
            e("fact", "carne"),
        ),
        u("sem camarao pq ta caro demais kkk"),
        u("e lista de compras pro atacadao"),
        u("obg"),
    ),
    chat(
        u(
            "nasci em santana do livramento mas me criei em pelotas, to fazendo um texto sobre a vida na fronteira pra uma cadeira da faculdade de jornalismo, me ajuda com a introducao?",
            e("fact", "livramento"),
            e("identity", "pelotas"),
            e("fact", "jornalismo"),
        ),
        u("quero algo mais poetico, tipo cronica"),
        u("bom, usa esse"),
    ),
    chat(
        u("sempre que falares de saúde põe as fontes no fim, ok?", e("instruction", "fonte")),
        u("o que é a doença de Crohn?"),
        u(
            "o meu marido foi diagnosticado o mês passado, anda muito em baixo",
            e("relationship", "marido"),
        ),
        u("que alimentação deve fazer nas crises"),
    ),
    chat(
        u("posso usar meu cpf como chave pix do mei ou tem que ser o cnpj?"),
        u("e maquininha, qual tem a taxa mais baixa hoje no debito"),
        u(
            "é pq eu vendo bolo de pote na faculdade e o povo so quer pagar no cartao",
            e("identity", "bolo"),
        ),
    ),
    chat(
        u(
            "mudei do windows para o Fedora há duas semanas e não consigo pôr o Steam a funcionar com a placa nvidia",
            e("environment", "fedora", forbid=("windows",)),
        ),
        u("é uma 3060, driver instalado pelo rpmfusion"),
        u("já deu, obrigado!"),
    ),
    chat(
        u(
            "Olá! Preciso de ajuda com um email para a escola do meu filho mais novo, o Martim, que anda no 3.º ano. Ele foi mordido por um colega no recreio e ninguém me avisou.",
            e("relationship", "Martim"),
        ),
        u("quero um tom firme mas educado"),
        u("acrescenta que peço uma reunião com a professora titular"),
        u("perfeito, vou enviar"),
    ),
    chat(
        u(
            "faço tranças nagô e box braids ha uns 7 anos em casa, aqui em salvador, e queria comecar a dar curso, como cobro? quanto cobrar?",
            e("skill", "tranc"),
            e("goal", "curso"),
        ),
        u("vou fazer turma de 5 alunas no sabado"),
        u("escreve o texto de divulgacao pro status do zap"),
        u("lindo, obg"),
    ),
    chat(
        u(
            'me ajuda a responder essa mensagem do meu chefe, ele mandou: "Oi, preciso que você fique até mais tarde sexta para fechar o inventário, ok?" e eu nao posso pq tenho faculdade sexta a noite',
            e("fact", "faculdade"),
        ),
        u("mais educado, ele é meio estressado"),
        u("manda"),
    ),
    chat(
        u("qual a diferenca de um plano de saude coparticipativo pro normal?"),
        u(
            "tenho 2 filhos pequenos e eles vivem no pediatra kkk qual compensa",
            e("relationship", "filhos"),
        ),
        u("ok vou de sem coparticipacao entao"),
    ),
    chat(
        u(
            "estou a aprender a fazer pão de fermentação natural e o meu levain não cresce, vivo no Funchal e aqui está sempre húmido, será isso?",
            e("goal", "pao"),
            e("fact", "funchal"),
        ),
        u("uso farinha T65 do Continente"),
        u("vou tentar com água morna, obrigado"),
    ),
    chat(
        u(
            "desde que me mudei para o Porto há seis meses ando sempre constipado, será do tempo?",
            e("fact", "porto"),
        ),
        u("antes vivia em Faro, nunca tinha isto", e("fact", "faro")),
        u("vou à farmácia, obrigado"),
    ),
    chat(
        u(
            'Act as a native English teacher and correct my text: "Yesterday I go to the beach with my family and we eat fish. I am living in Recife since 2019 and I work as a nurse."'
        ),
        u("agora me explica em portugues os erros de tempo verbal"),
        u("e o certo seria 'I have been living' msm?"),
        u(
            "ah e isso tudo é verdade viu kkk moro em recife mesmo e sou enfermeira na upa",
            e("fact", "recife"),
            e("identity", "enfermeir"),
        ),
    ),
    chat(
        u(
            "preciso escrever uma carta de apresentacao pra vaga de recepcionista bilingue num hotel em porto de galinhas, falo espanhol fluente pq morei 2 anos em buenos aires e ingles intermediario",
            e("skill", "espanhol"),
            e("skill", "ingl"),
        ),
        u("a vaga pede 'experiencia com Opera PMS', eu nunca usei mas aprendo rapido"),
        u("deixa em uma pagina so"),
        u("mandei, torce por mim kkk"),
    ),
)
