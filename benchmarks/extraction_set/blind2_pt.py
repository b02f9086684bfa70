# ruff: noqa: E501  (message texts are data: kept on one line each)
"""Blind Portuguese conversations of the extraction evaluation set, second batch
(see README.md in this folder).

Ids `pt-blind2-*`, split `dev`. Held out at first: their figures estimated how the extractor
does on chats nobody tuned against, and are kept in docs/extraction.md. Then they became dev,
when the third batch (`blind3_pt.py`) took their place as unseen chats.

How both files were written, and what they hold: `real2_pt.py`.

The shape of a conversation is `turns.py`'s.
"""

from __future__ import annotations

from typing import Final

from turns import Conversation, by, chat, e, group, u

CONVERSATIONS: Final[tuple[Conversation, ...]] = (
    # BR
    chat(
        u(
            "me passa uma receita de strogonoff de frango sem lactose? sou intolerante a lactose e creme de leite normal acaba comigo",
            e("fact", "lactose"),
        ),
        u("pra 4 pessoas"),
        u(
            "da pra trocar o champignon por outra coisa? detesto cogumelo de qualquer tipo",
            e("preference", "cogumelo"),
        ),
        u("perfeito obg"),
    ),
    # PT
    chat(
        u(
            "se eu fosse viver para o japão quanto é que precisava de ganhar por mês para viver bem em tóquio?"
        ),
        u("e em osaka? dizem que é mais barato"),
        u(
            "pergunto pq o meu irmão mais novo foi para lá no ano passado dar aulas de inglês e está sempre a dizer que devia ir ter com ele",
            e("relationship", "irm"),
        ),
        u(
            "nah, não me vejo a sair de setúbal tão cedo, tenho cá a minha vida toda",
            e("fact", "setubal"),
        ),
    ),
    # BR
    chat(
        u(
            "vamos fazer um roleplay: vc é o imperador dom pedro II em 1870 e eu sou um jornalista do jornal do commercio te entrevistando. fica no personagem o tempo todo"
        ),
        u(
            "Majestade, eu cresci no interior da província de Minas e nunca vi uma ferrovia. O senhor acredita que o trem chegará até nós?"
        ),
        u(
            "E a questão da escravidão? Eu, como jornalista, tenho recebido cartas de abolicionistas todos os dias."
        ),
        u(
            "kkkk mt bom. sai do personagem agora: isso ta historicamente correto? dou aula de historia pro 8o ano numa escola estadual em goiania e quero usar isso em sala",
            e("identity", "histori"),
            e("fact", "goiania"),
        ),
    ),
    # PT
    chat(
        u(
            "como é que faço um procv que vá buscar o valor a outra folha se o nome tiver espaços a mais?"
        ),
        u("=PROCV(A2;Clientes!A:D;4;FALSO) dá #N/D em metade das linhas"),
        u(
            "o compactar resolveu. uso o excel no mac por isso os atalhos que deste não funcionam, dá-me os do mac sff",
            e("environment", "mac"),
        ),
        u("top"),
    ),
    # PT
    group(
        ("Rui", "Inês", "Tiago"),
        by(
            "Rui",
            "malta, jantar de curso dia 14, quem trata da reserva? pedi aqui sugestões de restaurantes no porto",
        ),
        by(
            "Inês",
            "eu posso ligar. atenção que sou alérgica a marisco, por isso nada de marisqueiras",
            e("fact", "Inês", "marisco", forbid=("usuario",)),
        ),
        by(
            "Tiago",
            "eu só chego dia 13, ainda estou a trabalhar em londres até ao fim do mês",
            e("fact", "Tiago", "londres", forbid=("usuario",)),
        ),
        by("Rui", "ok então dia 14 às 20h, para 12 pessoas"),
        by("Inês", "pede opções com menu fixo até 30 euros"),
    ),
    # BR
    chat(
        u(
            "pq esse componente renderiza duas vezes?\n\nexport default function Lista({ itens }) {\n  const [filtro, setFiltro] = useState('')\n  useEffect(() => {\n    console.log('render', itens)\n  }, [itens])\n  return <ul>{itens.filter(i => i.nome.includes(filtro)).map(i => <li key={i.id}>{i.nome}</li>)}</ul>\n}"
        ),
        u(
            "ah é o StrictMode. e eu quero que a funcao de filtro retorne uma lista ordenada por nome, como fica?"
        ),
        u("prefiro a segunda versao, com useMemo"),
        u(
            "valeu. off: qual tema vc recomenda pro vscode? uso o dracula faz anos mas cansei",
            e("environment", "vscode"),
        ),
    ),
    # PT
    chat(
        u(
            "olha este anúncio:\n\nEstamos à procura de um(a) Engenheiro(a) de Software Backend para a nossa equipa em Braga. Requisitos: 3+ anos de experiência em Java/Spring Boot; experiência com Kafka e PostgreSQL; inglês fluente. Oferecemos: modelo híbrido, seguro de saúde, 25 dias de férias. Envia o teu CV para jobs@techmind.pt"
        ),
        u(
            "achas que me devo candidatar? tenho 2 anos de java, o resto vou aprendendo",
            e("skill", "java"),
        ),
        u(
            "fiz o mestrado em engenharia informática na uminho, se isso contar alguma coisa",
            e("fact", "mestrado"),
        ),
        u("escreve-me uma carta de apresentação curta, máximo 200 palavras"),
        u("tira a parte do 'apaixonado por tecnologia', soa a chatgpt"),
    ),
    # BR
    chat(
        u(
            "tenho diabetes tipo 1, como faço pra estimar os carboidratos de uma pizza margherita media?",
            e("fact", "diabetes"),
        ),
        u("é pra hoje a noite, vamos pedir numa pizzaria daqui e nao tem tabela nutricional"),
        u("e se eu comer só 3 fatias?"),
    ),
    # PT
    chat(
        u(
            "tenho o ubuntu 22.04 num thinkpad t480 e o wifi deixou de funcionar depois de uma atualização",
            e("environment", "ubuntu"),
            e("environment", "thinkpad"),
        ),
        u(
            "[  12.345678] iwlwifi 0000:03:00.0: Direct firmware load for iwlwifi-8265-36.ucode failed with error -2\n[  12.345699] iwlwifi 0000:03:00.0: no suitable firmware found!\n[  12.345701] iwlwifi 0000:03:00.0: minimum version required: iwlwifi-8265-22\n[  12.345702] iwlwifi 0000:03:00.0: maximum version supported: iwlwifi-8265-36"
        ),
        u("sudo apt install --reinstall linux-firmware diz que já está instalado"),
        u("RESULTOU!! obrigadão"),
    ),
    # BR
    chat(
        u("como declarar imposto de renda sendo MEI? preciso declarar como pessoa fisica tb?"),
        u(
            "sou designer grafico freelancer, MEI desde 2021, fatura uns 60k por ano",
            e("identity", "designer"),
        ),
        u("e o dasn-simei é a mesma coisa?"),
        u("beleza, me faz um checklist com os prazos"),
    ),
    # PT
    chat(
        u("imagina que tinha 100 mil euros para investir, onde é que os punhas?"),
        u("e se fosse só a pensar na reforma?"),
        u(
            "a sério agora: tenho 35 anos e gostava de me reformar aos 55, é realista com 800 euros por mês?",
            e("identity", "35"),
            e("goal", "reform"),
        ),
        u("mostra as contas numa tabela com 5% e 7% de rentabilidade"),
    ),
    # BR
    chat(
        u(
            "to tentando fazer esse join funcionar mas volta linha duplicada\n\nSELECT p.id, p.nome, c.nome AS categoria, e.quantidade\nFROM produtos p\nLEFT JOIN categorias c ON c.id = p.categoria_id\nLEFT JOIN estoque e ON e.produto_id = p.id\nWHERE p.ativo = true;"
        ),
        u("cada produto pode ter varios registros de estoque, um por filial"),
        u(
            "aqui na empresa a gente usa postgres pra tudo, entao pode usar coisa especifica dele",
            e("environment", "postgres"),
        ),
        u("o DISTINCT ON resolveu, vlw"),
    ),
    # PT
    chat(
        u(
            "o meu gato, o Bolacha, comeu um bocado de cebola crua há meia hora, é grave??",
            e("relationship", "bolacha"),
        ),
        u("ele tem uns 5 kg e comeu talvez uma colher de sopa"),
        u("ok vou ligar à veterinária, obrigada"),
    ),
    # BR
    chat(
        u(
            "traduz pro ingles: 'Eu sou o responsável pelo setor de compras e gostaria de agendar uma reunião com o fornecedor na próxima semana.'"
        ),
        u("manda uma versao mais formal"),
        u(
            "e como fica 'segue em anexo a planilha' sem ficar estranho? ah e daqui pra frente sempre me dá duas opções de tradução, uma formal e uma informal",
            e("instruction", "informal"),
        ),
    ),
    # PT
    chat(
        u(
            "troquei o sublime pelo neovim há umas semanas e ainda estou a apanhar o jeito, como configuro o lsp para python com o lazyvim?",
            e("environment", "neovim", forbid=("sublime",)),
        ),
        u("já tenho o pyright instalado pelo mason mas não reconhece o venv"),
        u("funcionou com o venv-selector. e para formatar com o ruff ao gravar?"),
        u("top, tks"),
    ),
    # BR
    chat(
        u(
            "finge que vc é um cliente muito irritado ligando pra central de atendimento de uma operadora de celular. eu vou ser o atendente, quero treinar"
        ),
        u("Bom dia, meu nome é Felipe, em que posso ajudar?"),
        u(
            "Entendo sua frustração senhor, vou verificar aqui no sistema o que aconteceu com sua fatura"
        ),
        u("Infelizmente eu não posso cancelar a multa, mas posso oferecer um desconto de 20%"),
        u(
            "para. como eu me sai? comecei nesse emprego de call center semana passada e to nervoso",
            e("identity", "call center"),
        ),
    ),
    # PT
    chat(
        u(
            "tenho este erro no node e não percebo\n\nnode:internal/modules/cjs/loader:1080\n  throw err;\n  ^\n\nError: Cannot find module 'express'\nRequire stack:\n- /home/joana/projetos/api-reservas/server.js\n    at Module._resolveFilename (node:internal/modules/cjs/loader:1077:15)\n    at Module._load (node:internal/modules/cjs/loader:922:27)\n    at Object.<anonymous> (/home/joana/projetos/api-reservas/server.js:1:17) {\n  code: 'MODULE_NOT_FOUND'\n}"
        ),
        u("fiz npm install e continua"),
        u(
            "ahhh estava na pasta errada. é uma api de reservas para o restaurante dos meus pais que ando a fazer nos tempos livres",
            e("project", "reservas"),
        ),
        u("já agora, qual é melhor para isto, sqlite ou postgres?"),
    ),
    # BR
    chat(
        u("me explica o que é complexidade O(n log n) como se eu tivesse 10 anos"),
        u("agora explica o merge sort com um exemplo de 8 numeros"),
        u(
            "faço ciencia da computação na unicamp, to no 3o semestre e tenho entrevista de estagio no itau semana que vem, to me borrando kkk",
            e("fact", "computa"),
            e("fact", "unicamp"),
        ),
        u("faz 3 perguntas tipicas de algoritmo que eles poderiam fazer"),
    ),
    # PT
    chat(
        u(
            "bom dia. sou professor de matemática numa secundária em viseu e queria ideias para explicar funções exponenciais ao 11º ano",
            e("identity", "professor"),
            e("fact", "viseu"),
        ),
        u("eles adoram futebol, dá para usar isso?"),
        u("faz-me uma ficha com 6 exercícios, do mais fácil ao mais difícil"),
        u("põe as soluções numa página à parte"),
        u("obrigado, poupaste-me uma hora"),
    ),
    # PT
    group(
        ("Marta", "João"),
        by(
            "Marta",
            "pergunta-lhe o que é melhor para um t2 em almada, gás natural ou bomba de calor",
        ),
        by(
            "João",
            "já pedi. eu trabalho por turnos no hospital garcia de orta, por isso a casa está vazia muitas vezes durante o dia",
            e("fact", "João", "garcia de orta", forbid=("usuario",)),
        ),
        by(
            "Marta",
            "e eu estou em teletrabalho 3 dias por semana",
            e("fact", "Marta", "teletrabalho", forbid=("usuario",)),
        ),
        by("João", "vê lá os custos de instalação também"),
    ),
    # BR
    chat(
        u(
            "resume esse artigo em 5 bullets\n\nA inteligência artificial generativa tem transformado o mercado de trabalho de forma acelerada. Segundo estudo da FGV publicado em 2024, cerca de 30% das tarefas realizadas por profissionais de escritório no Brasil podem ser automatizadas parcialmente nos próximos cinco anos. Os setores mais afetados incluem atendimento ao cliente, análise de documentos e produção de conteúdo. Por outro lado, surgem novas funções, como engenheiros de prompt e especialistas em governança de dados..."
        ),
        u("mais curto"),
        u(
            "agora transforma num post pro linkedin em primeira pessoa, tipo 'eu tenho visto no meu dia a dia como...'"
        ),
    ),
    # PT
    chat(
        u(
            "preciso de um script bash que apague ficheiros com mais de 30 dias numa pasta de backups"
        ),
        u(
            "find /mnt/backups -type f -mtime +30 -delete\n\nisto chega? é um raspberry pi 4 que tenho cá em casa com o nextcloud",
            e("environment", "raspberry"),
        ),
        u("e se quiser só os .tar.gz e deixar um log do que apagou?"),
        u("põe no cron para correr às 3 da manhã"),
    ),
    # BR
    chat(
        u(
            "escreva um texto argumentativo de 20 linhas sobre o uso de celular nas escolas, contra a proibição"
        ),
        u("agora a favor"),
        u("junta os dois num texto de debate com argumentos dos dois lados"),
    ),
    # PT
    chat(
        u(
            "tenho uma entrevista para a tap amanhã, para assistente de bordo. que perguntas costumam fazer?"
        ),
        u(
            "falo português, inglês e francês fluentemente, e um bocadinho de alemão",
            e("skill", "ingl"),
            e("skill", "franc"),
            e("skill", "alem"),
        ),
        u("como respondo ao 'porque quer trabalhar na TAP'?"),
        u("mais natural, menos decorado"),
    ),
    # BR
    chat(
        u(
            "minha mae foi diagnosticada com alzheimer inicial, como eu posso ajudar ela no dia a dia?",
            e("relationship", "mae"),
        ),
        u("ela mora comigo e com meu marido desde janeiro", e("relationship", "marido")),
        u(
            "tem algum grupo de apoio pra familiares aqui em porto alegre?",
            e("fact", "porto alegre"),
        ),
    ),
    # PT
    chat(
        u(
            "olá, estou a fazer uma app em flutter para gerir as quotas do clube de xadrez onde jogo, e não consigo ordenar a lista por data",
            e("project", "xadrez"),
        ),
        u(
            "List<Socio> socios = await repo.getAll();\nsocios.sort((a, b) => a.dataPagamento.compareTo(b.dataPagamento));\n\ndá erro: The method 'compareTo' isn't defined for the type 'String'"
        ),
        u("as datas vêm da api como '12/03/2024'"),
        u("já está. quero a lista ao contrário, mais recentes primeiro"),
    ),
    # BR
    chat(
        u("quais as melhores series de suspense da netflix agora?"),
        u(
            "ja vi dark, mindhunter e you. amo coisa com plot twist, odeio quando é muito lento no começo",
            e("preference", "plot twist"),
            e("preference", "lent"),
        ),
        u("e fora da netflix? tenho max e prime tb", e("environment", "prime")),
    ),
    # PT
    chat(
        u(
            "responde-me sempre em tópicos curtos, não gosto de textos compridos",
            e("instruction", "topicos"),
        ),
        u("quais os sintomas de anemia?"),
        u("ando muito cansada ultimamente mas pode ser só do trabalho"),
        u("e que análises devo pedir à médica de família?"),
    ),
    # BR
    chat(
        u("qual diferença de regime clt pra pj na pratica? recebi uma proposta pj de 12k"),
        u(
            "hoje sou clt ganhando 8.500 como dev pleno numa fintech",
            e("identity", "dev"),
            e("fact", "fintech"),
        ),
        u("faz as contas considerando ferias, 13o e fgts"),
        u("entao compensa ne? vou pensar com calma"),
    ),
    # PT
    chat(
        u("tenho 52 anos e nunca fiz desporto na vida, por onde começo?", e("identity", "52")),
        u("tenho hérnia discal na lombar, diagnosticada há 2 anos", e("fact", "hernia")),
        u("natação é boa ideia? há uma piscina municipal perto de casa"),
        u(
            "ok, vou experimentar. quero conseguir fazer a meia maratona de lisboa daqui a 2 anos",
            e("goal", "maratona"),
        ),
    ),
    # PT
    group(
        ("Sofia", "Miguel"),
        by("Sofia", "vamos perguntar-lhe um plano de viagem para os açores em junho, 7 dias"),
        by("Miguel", "eu nunca fui, tu já foste duas vezes não foi?"),
        by(
            "Sofia",
            "sim, adoro aquilo. e eu faço mergulho desde os 16, queria incluir um dia de mergulho em santa maria",
            e("skill", "Sofia", "mergulh", forbid=("usuario",)),
        ),
        by(
            "Miguel",
            "eu enjoo imenso em barcos, por isso nada de whale watching para mim",
            e("fact", "Miguel", "enjo", forbid=("usuario",)),
        ),
        by("Sofia", "ok, pede-lhe então São Miguel e Santa Maria"),
    ),
    # BR
    chat(
        u("escreve uma mensagem de cobrança educada pra um cliente que ta devendo 2 meses"),
        u(
            "o cliente é uma escola de inglês, sou contadora autonoma e eles sao meus clientes faz anos",
            e("identity", "contador"),
        ),
        u("menos agressiva, eles sao clientes antigos"),
        u("pode mandar"),
    ),
    # BR
    chat(
        u("to com dor de cabeca faz 3 dias, tomei dipirona e nao passa. devo me preocupar?"),
        u(
            "nao tenho febre. to dormindo mal pq o bebê nasceu faz 2 semanas",
            e("relationship", "bebe"),
        ),
        u("ok, vou marcar no posto amanha"),
    ),
    # PT
    chat(
        u(
            'estou a tentar fazer com que esta fórmula do google sheets some só os valores de março e não consigo\n\n=SOMA.SE(A2:A200;"março";C2:C200)'
        ),
        u("a coluna A tem datas, não texto"),
        u("perfeito. e para dar a soma por mês numa tabela ao lado?"),
    ),
    # BR
    chat(
        u("me dá ideias de presente de dia dos pais ate 200 reais"),
        u("meu pai tem 68 anos, é aposentado e vive pescando no rio", e("relationship", "pai")),
        u("gostei da caixa de pesca. onde compro?"),
    ),
    # PT
    chat(
        u(
            "sou enfermeira no ipo do porto ha 12 anos e estou a pensar fazer a especialidade em paliativos, vale a pena?",
            e("identity", "enfermeir"),
            e("fact", "ipo"),
            e("goal", "paliativ"),
        ),
        u("quanto tempo demora e quanto custa mais ou menos?"),
        u("e da para conciliar com turnos?"),
    ),
    # BR
    chat(
        u(
            "a partir de agora quando eu pedir receita me dá as medidas em gramas e ml, xicara nao funciona pra mim",
            e("instruction", "grama"),
        ),
        u("receita de pao de queijo de liquidificador"),
        u("rende quantos?"),
        u("e da pra congelar cru?"),
    ),
    # PT
    chat(
        u("explica-me como funciona o IRS jovem em 2025"),
        u("tenho 26 anos e este é o meu segundo ano a trabalhar", e("identity", "26")),
        u("e se mudar de emprego a meio do ano perco o benefício?"),
    ),
    # BR
    chat(
        u(
            'reescreve esse texto pra ficar mais formal, é pro grupo de pais da escola\n\n"oi gente, alguem sabe se vai ter aula sexta? meu filho disse q nao mas ele fala qualquer coisa kkk"'
        ),
        u("ficou formal demais kkk, meio termo"),
        u("perfeito"),
    ),
    # PT
    chat(
        u(
            "estou a fazer um trabalho sobre o 25 de abril para a faculdade, podes dar-me uma cronologia dos acontecimentos desse dia?"
        ),
        u("inclui as senhas da rádio, o 'E depois do adeus' e a 'Grândola'"),
        u("quero que fique em formato de tabela com hora e acontecimento"),
        u(
            "obrigado. estudo história na faculdade de letras de lisboa, estou no 2º ano",
            e("fact", "historia"),
        ),
    ),
    # BR
    chat(
        u(
            "vc pode fazer um resumo do livro 'o cortiço' pra prova de literatura? to no 3o ano do ensino medio",
            e("fact", "ensino medio"),
        ),
        u("fala dos personagens principais tb"),
        u("e qual a relação com o naturalismo?"),
        u("nossa que livro deprimente hein, coitada da bertoleza"),
    ),
    # BR
    chat(
        u("e ai, me ajuda a montar um setup de home office? orçamento de uns 3k"),
        u(
            "trabalho de casa 100% faz 2 anos, sou do suporte tecnico de uma empresa de software hospitalar",
            e("identity", "suporte"),
        ),
        u(
            "monitor ja tenho. uso um notebook dell com windows 11 ligado num monitor lg de 24",
            e("environment", "windows"),
            e("environment", "dell"),
        ),
        u(
            "cadeira é prioridade, tenho escoliose e depois de 4h sentado as costas acabam",
            e("fact", "escoliose"),
        ),
        u("a da flexform ou a da cavaletti?"),
        u(
            "e teclado mecanico, faz mt barulho? moro com minha namorada e ela trabalha no mesmo comodo",
            e("relationship", "namorada"),
        ),
        u("fechou, valeu demais"),
    ),
    # BR
    chat(
        u(
            "pode me chamar de Tati, e por favor responde sem aquele monte de emoji",
            e("identity", "tati"),
            e("instruction", "emoji"),
        ),
        u("qual a diferença entre tarifa branca e convencional na conta de luz?"),
    ),
    # BR
    chat(
        u(
            "preciso de um script python que leia um csv de clientes e mande um email com o boleto de cada um"
        ),
        u("pode usar smtplib mesmo, o email é do gmail"),
        u(
            "to fazendo um sistema de cobranca pra academia do meu irmao, ele é personal e abriu um studio pequeno",
            e("project", "cobranca"),
            e("relationship", "irm"),
        ),
        u(
            "nao manjo muito de python ainda, sou mais de excel e vba, uso ha uns 10 anos",
            e("skill", "vba"),
        ),
        u(
            "deu isso: UnicodeDecodeError: 'utf-8' codec can't decode byte 0xe7 in position 1243: invalid continuation byte"
        ),
    ),
    # BR
    chat(
        u(
            "voltei a morar em recife depois de 5 anos em lisboa e to achando tudo caro kkkk como organizo meu orçamento?",
            e("fact", "recife", forbid=("lisboa",)),
        ),
        u("ganho uns 7 mil liquido, aluguel é 2.200"),
        u("usa o metodo 50/30/20"),
        u("amo viajar, queria separar uma parte pra isso todo mes", e("preference", "viaj")),
        u("me faz a planilha em formato de tabela markdown"),
        u(
            "meu objetivo é juntar pra dar entrada num apartamento até 2027",
            e("goal", "apartamento"),
        ),
    ),
)
