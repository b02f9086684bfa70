# ruff: noqa: E501  (message texts are data: kept on one line each)
"""The third blind batch of Portuguese conversations of the extraction evaluation set, ids
`pt-blind3-*`, split `heldout`, never used for tuning: Brazilian and European Portuguese chats
with an assistant and a few group conversations, shaped like real exports (typos, pasted code,
e-mails, role-play, text to translate, requests about the task at hand) with genuine
self-disclosure buried among them. It was written blind, without reading the extractor, its
tests, the benchmark or any other conversation of the set; only `turns.py`'s shape was used."""

from __future__ import annotations

from typing import Final

from turns import Conversation, by, chat, e, group, u

CONVERSATIONS: Final[tuple[Conversation, ...]] = (
    chat(
        u(
            "oi, preciso escrever um email pro meu senhorio reclamando de um vazamento no teto do banheiro que ja dura 2 semanas, moro aqui em campinas faz uns 3 anos e nunca tive problema com ele mas agora ta demorando demais pra resolver",
            e("fact", "campinas"),
        ),
        u("ficou muito formal, deixa mais direto e menos puxa saco kkk"),
        u("perfeito, so troca 'prezado' por 'oi seu Jorge' que a gente tem intimidade"),
    ),
    chat(
        u(
            "olá! estou a fazer um script em python para renomear as fotos que passo do telemóvel para o portátil, queria que ficassem tipo 2024-05-12_001.jpg. uso ubuntu em casa se isso importar",
            e("environment", "ubuntu"),
        ),
        u(
            "deu isto:\nTraceback (most recent call last):\n  File \"/home/rita/fotos/renomear.py\", line 14, in <module>\n    data = img._getexif()[36867]\nTypeError: 'NoneType' object is not subscriptable"
        ),
        u(
            "ah ok, algumas fotos são do whatsapp e não têm exif. podes fazer com que use a data do ficheiro nesses casos?"
        ),
        u("funcionou, obrigada!!"),
    ),
    chat(
        u(
            "finge que vc é um cliente muito irritado de uma operadora de internet e eu sou o atendente, quero treinar pra entrevista de call center amanhã"
        ),
        u("boa tarde, meu nome é Felipe, em que posso ajudar?"),
        u("entendo perfeitamente sua frustração senhor, vou verificar aqui no sistema o protocolo"),
        u(
            "pausa. como eu me sai ate agora? seja sincero, to desempregado faz 4 meses e essa vaga é importante",
            e("fact", "desempreg"),
        ),
    ),
    chat(
        u(
            "traduz para inglês por favor: 'Sou enfermeira há doze anos e trabalho no turno da noite num hospital em Coimbra. Tenho dois filhos e um cão chamado Tejo.' é para a minha prima que vai mandar para uma agência de recrutamento no reino unido"
        ),
        u("e consegues pôr mais formal? tipo cover letter"),
    ),
    chat(
        u(
            "qual a diferença entre let e const em javascript? to começando agora a aprender programação, sou contador e quero mudar de área até o fim do ano que vem",
            e("identity", "contador"),
            e("goal", "program"),
        ),
        u("e var? vi num tutorial antigo"),
        u("entendi. me passa 3 exercicios bem simples pra praticar isso"),
        u(
            "fiz o primeiro:\nconst nome = 'Joao'\nnome = 'Maria'\nconsole.log(nome)\ndeu erro, é isso que era pra acontecer?"
        ),
    ),
    chat(
        u(
            "preciso de uma receita de jantar rapida pra hoje, tenho frango, arroz, brocolis e meio pimentao"
        ),
        u(
            "sem creme de leite pq sou intolerante a lactose, esqueci de falar",
            e("fact", "lactose"),
        ),
        u("ficou otimo, valeu"),
    ),
    chat(
        u(
            "a partir de agora responde-me sempre em português de portugal, nada de 'você' nem 'celular' ok? já me chateia estar sempre a corrigir",
            e("instruction", "portugal"),
        ),
        u(
            "então, como é que se calcula o IRS de quem tem recibos verdes e também trabalha por conta de outrem?"
        ),
        u("e se eu tiver menos de 25 anos muda alguma coisa? ouvi falar do irs jovem"),
        u("ok, tenho 24, por isso aplica-se. obrigado", e("identity", "24")),
    ),
    chat(
        u(
            "me ajuda a revisar esse texto pra minha redação do enem? 'Desde pequeno, eu sempre morei no interior de Minas e vi de perto a falta de saneamento básico. Meu pai, agricultor, dizia que água limpa era luxo.' o tema é saneamento no brasil"
        ),
        u("nao é sobre mim, é um texto modelo que a professora deu pra gente corrigir kkk"),
        u("quais os erros de coesão que vc achou?"),
    ),
    chat(
        u(
            "btw esqueci de dizer, mudei de emprego! agora tô na Nubank como analista de dados, saí do itaú semana passada",
            e("fact", "nubank", forbid=("itau",)),
            e("identity", "analista de dados"),
        ),
        u(
            "enfim, me explica window functions no sql, tipo ROW_NUMBER e RANK, que vão me cobrar isso na primeira sprint"
        ),
        u("e qual a diferença de RANK pra DENSE_RANK com um exemplo"),
    ),
    chat(
        u(
            "tenho uma reunião com o meu chefe amanhã para pedir aumento, podes ajudar-me a preparar uns argumentos?"
        ),
        u(
            "trabalho como designer de UX numa empresa de software em Braga, estou lá há 3 anos e nunca tive aumento além da inflação",
            e("identity", "designer"),
            e("fact", "braga"),
        ),
        u("gosto dos pontos 1 e 3, o 2 parece um bocado agressivo"),
        u(
            "e se ele disser que não há orçamento este ano? é que a minha mulher está grávida do nosso segundo filho e preciso mesmo disto",
            e("relationship", "gravid"),
        ),
    ),
    chat(
        u(
            "quantas gramas de proteína por dia para alguém com 80kg que vai ao ginásio 4x por semana?"
        ),
        u(
            "e se a pessoa for vegana? a minha namorada é e está sempre a perguntar-me isso",
            e("relationship", "namorada"),
        ),
        u(
            "no meu caso os 80kg sou eu mesmo ahah, ando a tentar ganhar massa muscular este ano",
            e("goal", "massa"),
        ),
        u("fixe, vou mandar-lhe isto"),
    ),
    chat(
        u(
            "sou alérgico a camarão e vou num casamento no sábado onde o buffet é quase todo frutos do mar, como eu peço pro cerimonial sem parecer chato?",
            e("fact", "camar"),
        ),
        u("escreve uma mensagem curtinha de whatsapp pra eu mandar pra noiva"),
        u("massa, ficou bem natural"),
    ),
    chat(
        u(
            "estou a tentar fazer esta regex funcionar para validar códigos postais portugueses (1234-567) mas não apanha nada:\n^\\d{4}\\-\\d{3}"
        ),
        u(
            "preciso que também aceite sem o hífen, é para o formulário de moradas da empresa de logística onde trabalho, em Aveiro",
            e("fact", "aveiro"),
        ),
        u("perfeito. e em javascript é igual?"),
    ),
    chat(
        u(
            "vc pode me recomendar umas series tipo dark? eu amo coisa de viagem no tempo e misterio, detesto comédia romantica",
            e("preference", "viagem no tempo"),
            e("preference", "comedia romantica"),
        ),
        u("ja vi 1899 e achei meio chato"),
        u("vou começar steins gate entao, valeu"),
        u(
            "mas sério, nada bate dark, é minha serie favorita da vida, ja vi umas 3 vezes",
            e("preference", "dark"),
        ),
    ),
    group(
        ("Marta", "Tiago"),
        by(
            "Marta",
            "ok vamos organizar a viagem aos Açores, eu só consigo ir na segunda semana de julho porque tenho exames até dia 5",
        ),
        by(
            "Tiago",
            "por mim tudo bem, mas não contem comigo para caminhadas longas, tenho uma hérnia discal e o médico proibiu-me de carregar mochilas pesadas",
            e("fact", "Tiago", "hernia", forbid=("usuario",)),
        ),
        by(
            "Marta",
            "tranquilo. eu sou vegetariana há uns 6 anos por isso escolham restaurantes com opções, pode ser?",
            e("fact", "Marta", "vegetarian", forbid=("usuario",)),
        ),
        by(
            "Tiago",
            "claro. assistente, faz-nos um roteiro de 5 dias em São Miguel com isso em conta",
        ),
    ),
    chat(
        u(
            "oi! queria ideias de presente pro aniversario de 60 anos da minha mae, ela gosta de jardinagem e de ler romance policial"
        ),
        u(
            "orçamento ate uns 300 reais, e tem que dar pra mandar pelo correio pq ela ta em salvador e eu moro em são paulo",
            e("fact", "sao paulo"),
        ),
        u(
            "o kit de ferramentas de jardim é uma boa, vou dividir com meu irmão, o Caio, ele sempre esquece a data kkk",
            e("relationship", "caio"),
        ),
    ),
    chat(
        u(
            'hey, i need help com um erro no docker compose, o container do postgres sobe mas a api não conecta:\n\napi_1  | sqlalchemy.exc.OperationalError: (psycopg2.OperationalError) could not connect to server: Connection refused\napi_1  | \tIs the server running on host "localhost" (127.0.0.1) and accepting\napi_1  | \tTCP/IP connections on port 5432?'
        ),
        u("ah entao dentro do compose tem q usar o nome do serviço, faz sentido"),
        u(
            "no dia a dia eu trampo com golang, faz uns 4 anos ja, python eu so uso pra script entao to meio enferrujado",
            e("skill", "golang"),
        ),
        u(
            "agora deu certo. aproveitando, eu uso mac com chip m2 e as vezes a imagem do postgres demora demais pra buildar, tem algo q eu possa fazer?",
            e("environment", "mac"),
        ),
    ),
    chat(
        u(
            "podes rever este email? 'Caro Prof. Almeida, venho por este meio pedir uma extensão do prazo de entrega do relatório de Bioquímica, uma vez que estive doente durante a última semana. Anexo atestado médico. Com os melhores cumprimentos, Inês'"
        ),
        u("está bom assim ou é demasiado seco?"),
        u("ok muda 'venho por este meio' que acho antiquado"),
    ),
    chat(
        u("me explica como funciona juros compostos de um jeito simples"),
        u("e no tesouro selic, rende isso tudo mesmo?"),
        u(
            "to querendo juntar uns 50 mil pra dar entrada num apartamento ate 2027, quanto eu teria que guardar por mes?",
            e("goal", "apartamento"),
        ),
        u("e se eu conseguir só 1200 por mês?"),
    ),
    chat(
        u(
            "como se diz 'estou farto disto' em inglês de forma natural? não quero 'I am fed of this'"
        ),
        u("e 'não tenho paciência' ?"),
    ),
    chat(
        u(
            "vou te mandar meu curriculo pra vc melhorar a parte de resumo profissional:\n\nLUCAS MENDES\nRecife - PE | (81) 9xxxx-xxxx\nRESUMO: Desenvolvedor backend com 5 anos de experiência em Java e Spring Boot, atuando em sistemas bancários. Busco oportunidade como tech lead.\nEXPERIÊNCIA: Accenture (2021-atual) ...",
            e("fact", "recife"),
            e("skill", "java"),
            e("goal", "tech lead"),
        ),
        u("deixa em 3 linhas no maximo"),
        u("gostei mais da segunda versão"),
        u("traduz essa pro ingles tb pro linkedin"),
    ),
    chat(
        u(
            "se eu morasse no japão, quanto eu gastaria por mês mais ou menos em tóquio? só curiosidade"
        ),
        u("e em osaka?"),
        u(
            "nossa bem mais barato do que eu achava, aqui em fortaleza onde eu nasci e moro um ap de 1 quarto ja ta quase isso",
            e("fact", "fortaleza"),
        ),
    ),
    chat(
        u(
            "preciso de ajuda com o meu gato, o Bolacha, tem 3 anos e desde ontem não come a ração. é normal?",
            e("relationship", "bolacha"),
        ),
        u(
            "ele bebe água normalmente e faz xixi, só não quer comer. vivo sozinha num T1 em Setúbal e ele passa o dia sozinho enquanto estou no trabalho, pode ser isso?",
            e("fact", "setubal"),
        ),
        u("ok vou ligar para a veterinária amanhã de manhã se ele continuar assim"),
    ),
    chat(
        u(
            "write me a python function that takes a list of dicts and groups them by a key, tipo itertools.groupby mas sem precisar ordenar"
        ),
        u("quero que retorne um dict de listas"),
        u("e com type hints, uso mypy strict no trampo", e("environment", "mypy")),
        u("top"),
    ),
    chat(
        u(
            "bom dia. estou a escrever a minha tese de mestrado em engenharia civil na FEUP sobre betão reciclado e preciso de ajuda para estruturar o capítulo da revisão bibliográfica",
            e("fact", "engenharia civil"),
            e("project", "tese"),
        ),
        u("o meu orientador diz que está muito descritivo e pouco crítico"),
        u(
            "podes dar um exemplo de um parágrafo mais crítico com base nisto: 'Silva (2018) estudou a resistência à compressão de betões com 30% de agregado reciclado e obteve valores 12% inferiores.'"
        ),
        u("ficou mesmo bom. faz mais um com Pereira (2020) que obteve resultados parecidos"),
    ),
    chat(
        u(
            "olá, sou brasileira mas moro em Lisboa há dois anos e ainda confundo muita coisa, tipo o que é 'bica' e 'pica'? kkk",
            e("identity", "brasileir"),
            e("fact", "lisboa"),
        ),
        u("e 'fixe' é gíria de que?"),
        u(
            "aqui as pessoas acham engraçado quando eu digo 'legal', ainda não me acostumei a dizer 'fixe'"
        ),
        u("me dá mais umas 10 expressões bem portuguesas que eu deveria saber"),
    ),
    chat(
        u(
            "me ajuda a planejar minha semana de estudos? trabalho das 8 as 17 e faço faculdade de direito a noite na PUC, to no 3o semestre",
            e("fact", "direito"),
        ),
        u(
            "sabado de manha eu jogo futebol com os amigos entao nao conta. ah e tenho TDAH, diagnosticaram ano passado, blocos curtos funcionam melhor pra mim",
            e("fact", "tdah"),
        ),
        u("coloca as matérias: constitucional, civil II, penal e teoria geral do processo"),
        u("ficou apertado demais, tira meia hora de cada dia"),
    ),
    chat(
        u(
            "podes agir como se fosses o Fernando Pessoa e responder-me sobre o que achas das redes sociais?"
        ),
        u("e o Álvaro de Campos, o que diria?"),
        u("fantástico. agora o Caeiro"),
    ),
    chat(
        u(
            "o meu filho tem 7 anos e anda com dificuldades a matemática, sobretudo nas subtrações com transporte. como é que lhe explico de forma que ele perceba?",
            e("relationship", "filho"),
        ),
        u("ele adora legos, dá para usar?"),
        u("boa! vou experimentar hoje à noite"),
    ),
    chat(
        u(
            "explica-me a diferença entre git rebase e git merge, sempre usei merge e os meus colegas gozam comigo"
        ),
        u("e o que é o --force-with-lease?"),
        u(
            "já agora, mudei do vscode para o neovim há um mês e ainda estou a sofrer com os atalhos, tens alguma dica para o plugin do git lá?",
            e("environment", "neovim", forbid=("vscode",)),
        ),
        u("fugitive parece bom, vou experimentar"),
    ),
    chat(
        u("escreve um poema curto sobre saudade, tipo estilo cordel"),
        u(
            "mais engraçado, pode ter rima boba, eu sou de campina grande, cresci ouvindo cordel na feira, entao capricha",
            e("identity", "campina grande"),
        ),
        u("kkkkk amei"),
    ),
    chat(
        u(
            "tenho diabetes tipo 1 desde os 12 anos e vou começar a correr, o que devo cuidar com a glicemia antes e depois do treino?",
            e("fact", "diabetes"),
        ),
        u("uso o libre pra medir, da pra ver tendência em tempo real", e("environment", "libre")),
        u(
            "quero fazer uma meia maratona no ano que vem, é realista começando do zero?",
            e("goal", "maratona"),
        ),
        u("monta um plano de 12 semanas pra eu chegar nos 10k primeiro"),
    ),
    chat(
        u(
            "preciso de um texto para pôr no anúncio do olx a vender uma bicicleta de estrada, marca Specialized Allez, tamanho 54, pouco uso"
        ),
        u("menciona que tem pedais automáticos incluídos"),
        u(
            "e um preço justo, achas que 450€ está bem? vendo porque comprei uma gravel no mês passado, confesso que prefiro mil vezes andar em terra batida do que em estrada",
            e("preference", "terra batida"),
        ),
    ),
    chat(
        u(
            "qual a melhor forma de aprender violão sozinho? tenho 38 anos, toco teclado desde criança mas nunca peguei num instrumento de corda",
            e("identity", "38"),
            e("skill", "teclado"),
            e("goal", "violao"),
        ),
        u("tem algum app que vc recomenda?"),
        u("justin guitar é em ingles ne? tudo bem, eu leio bem ingles", e("skill", "ingles")),
    ),
    chat(
        u(
            "podes corrigir a gramática disto? 'A empresa aonde eu trabalho tem vindo a crescer e portanto houveram muitas contratações.'"
        ),
        u("porque é que 'houveram' está errado?"),
        u("ok faz sentido, obrigado"),
    ),
    chat(
        u(
            "me fala os principais pontos positivos e negativos de morar em Curitiba vs Florianópolis, to pensando em sair do Rio de Janeiro no ano que vem por causa da violência",
            e("fact", "janeiro"),
            e("goal", "janeiro"),
        ),
        u("trabalho remoto então emprego não é problema", e("fact", "remoto")),
        u("e custo de aluguel?"),
        u("acho que floripa ganha, mas o inverno de curitiba me assusta lol"),
    ),
    group(
        ("Bruno", "Carla", "Dani"),
        by("Bruno", "gente o churrasco de sábado vai ser lá em casa, alguém leva o carvão?"),
        by(
            "Carla",
            "eu levo! mas lembrando que eu parei de comer carne vermelha esse ano, então vou levar uns espetos de frango e legumes pra mim",
            e("preference", "Carla", "carne vermelha", forbid=("usuario",)),
        ),
        by("Dani", "eu levo a cerveja. Bruno teu cachorro ainda morde visita? kkk"),
        by(
            "Bruno",
            "o Thor? ele só late, relaxa. ia, faz uma lista de compras pra 10 pessoas com isso tudo",
            e("relationship", "Bruno", "thor", forbid=("usuario",)),
        ),
    ),
    chat(
        u(
            "o que significa este erro de typescript? Type 'string | undefined' is not assignable to type 'string'.\n  Type 'undefined' is not assignable to type 'string'.ts(2322)"
        ),
        u("o código é:\nconst token: string = process.env.API_TOKEN\n"),
        u(
            "quero que rebente logo no arranque se a variável não existir. ah e corre em deno, não em node, é o que uso nos meus projetos pessoais",
            e("environment", "deno"),
        ),
    ),
    chat(
        u(
            "oi sumido kkk voltei. entao, aquele projeto do app de receitas que eu tava fazendo em flutter, resolvi reescrever em react native pq a empresa onde trabalho usa rn e quero aproveitar pra aprender",
            e("project", "receitas"),
            e("goal", "react native"),
        ),
        u("como eu faço navegação entre telas com o react navigation v6?"),
        u("e pra passar params?"),
        u("valeu, funcionou"),
    ),
    chat(
        u(
            "resume este artigo em 5 tópicos:\n\nA inteligência artificial generativa tem transformado o setor de atendimento ao cliente. Empresas que adotaram chatbots baseados em grandes modelos de linguagem relatam redução de até 30% no tempo médio de resposta. No entanto, especialistas alertam para riscos como alucinações, vazamento de dados e perda de empatia no atendimento. Segundo pesquisa da consultoria X, 62% dos consumidores ainda preferem falar com humanos em casos complexos..."
        ),
        u("menos formal, é pra um post no linkedin"),
    ),
    chat(
        u(
            "eu nunca sei o que fazer ao jantar e acabo sempre a pedir uber eats. podes sugerir-me um plano de refeições semanal? não como peixe nenhum, odeio o cheiro",
            e("preference", "peixe"),
        ),
        u("também não tenho forno, só placa e microondas", e("fact", "forno")),
        u("fixe, e a lista de compras?"),
    ),
    chat(
        u("qual é o melhor portátil para programar até uns 1000 euros?"),
        u(
            "vou usá-lo para estudar data science, estou a fazer um bootcamp à noite e quero mesmo mudar para essa área",
            e("goal", "data science"),
        ),
        u("e o linux corre bem nesse lenovo?"),
    ),
    chat(
        u("imagina que és um guia turístico no Porto no século XIX e descreve-me a Ribeira"),
        u("agora como se fosse hoje, com turistas e tudo"),
    ),
    chat(
        u(
            "meu marido e eu estamos pensando em adotar um cachorro mas moramos em apartamento pequeno, quais raças são mais tranquilas?",
            e("relationship", "marido"),
        ),
        u("e gato? ele prefere gato na verdade kkk"),
        u("ok vamos ver na feira de adoção no domingo"),
    ),
    chat(
        u(
            "estou a aprender alemão há uns meses no goethe, nível A2, e quero chegar ao B2 antes de me mudar para Munique em setembro de 2026. trabalho como engenheiro mecânico e a empresa vai transferir-me",
            e("goal", "alemao"),
            e("goal", "munique"),
            e("identity", "engenheir"),
        ),
        u("podes fazer-me umas frases para praticar o Perfekt?"),
        u("corrige: Ich habe gestern nach Hause gegangen."),
        u("ah pois, com sein. obrigado"),
    ),
    chat(
        u(
            "daqui pra frente sempre me dá os códigos em typescript e não em javascript puro, beleza? e sem ponto e vírgula",
            e("instruction", "typescript"),
            e("instruction", "ponto e virgula"),
        ),
        u("agora, como faço um debounce num input de busca no react?"),
        u("quero que seja um hook reutilizável"),
    ),
    chat(
        u(
            "estou farta do meu trabalho no call center, sou licenciada em psicologia pela universidade do minho e nunca consegui exercer. o que posso fazer para entrar na área de RH?",
            e("fact", "psicologia"),
            e("goal", "rh"),
        ),
        u("achas que vale a pena tirar uma pós-graduação?"),
        u("faz-me uma carta de motivação genérica que eu depois adapto"),
    ),
    group(
        ("Joana", "Pedro"),
        by(
            "Joana",
            "assistente, ajuda-nos a decidir o nome do nosso podcast, é sobre finanças pessoais para jovens",
        ),
        by(
            "Pedro",
            "eu sou economista e trabalho no Banco de Portugal, por isso a parte técnica fica comigo, a Joana faz a edição",
            e("identity", "Pedro", "economista", forbid=("usuario",)),
            e("fact", "Pedro", "banco de portugal", forbid=("usuario",)),
        ),
        by(
            "Joana",
            "sim, eu edito vídeo há uns 8 anos, uso Premiere e DaVinci",
            e("skill", "Joana", "video", forbid=("usuario",)),
            e("environment", "Joana", "davinci", forbid=("usuario",)),
        ),
        by("Pedro", "gostamos do 'Trocos' mas talvez já exista, dá mais ideias"),
    ),
    chat(
        u(
            "quero fazer um bot no discord em python que avisa quando um streamer entra ao vivo na twitch, é pro meu servidor de amigos",
            e("project", "discord"),
        ),
        u(
            "deu isso aqui:\ndiscord.errors.PrivilegedIntentsRequired: Shard ID None is requesting privileged intents that have not been explicitly enabled in the developer portal."
        ),
        u(
            "ativei e funcionou. agora como faço pra ele rodar 24h? tenho um raspberry pi 4 parado aqui em casa",
            e("environment", "raspberry"),
        ),
        u("systemd parece bom, me mostra o arquivo .service"),
    ),
    chat(
        u(
            "sou de Angola mas vivo em Portugal desde os 10 anos, e às vezes as pessoas perguntam-me se sou portuguesa ou angolana. como explicar isto num texto de apresentação para um workshop de escrita?",
            e("identity", "angol"),
            e("fact", "portugal"),
        ),
        u("gosto do tom, mas tira a parte do 'entre dois mundos' que é cliché"),
        u("perfeito"),
    ),
    chat(
        u(
            "tava usando o windows mas instalei o fedora semana passada no meu pc de casa, como eu instalo o steam nele?",
            e("environment", "fedora", forbid=("windows",)),
        ),
        u("e os jogos da epic? tem como?"),
        u(
            "heroic launcher, blz vou ver. o que eu mais jogo é baldur's gate 3, meu jogo favorito disparado, roda bem no proton?",
            e("preference", "baldur"),
        ),
    ),
    chat(
        u(
            "preciso de responder a este email do cliente de forma educada mas firme:\n\n'Boa tarde, ainda não recebemos a segunda versão do logótipo que foi prometida para sexta. Isto é inaceitável, estamos a pagar por um serviço profissional. Cumprimentos, Rui Matos'\n\no atraso foi porque ele mandou o briefing alterado na quinta à noite"
        ),
        u(
            "sem pedir desculpa demasiadas vezes, sou designer freelancer e não posso parecer pouco profissional",
            e("identity", "freelancer"),
        ),
        u("ok envia-me a versão final"),
    ),
    chat(
        u("o que é melhor para quem está a começar, python ou javascript?"),
        u(
            "queria automatizar folhas de cálculo, trabalho na contabilidade de uma transportadora e faço tudo à mão no excel, é uma seca",
            e("fact", "transportadora"),
            e("goal", "automat"),
        ),
        u("então python. por onde começo?"),
    ),
    chat(
        u(
            "escreve um conto curto em primeira pessoa de um pescador idoso da Nazaré que perdeu o barco numa tempestade"
        ),
        u("mais melancólico no final"),
        u("está lindo, obrigada"),
    ),
    chat(
        u(
            "tenho 29 anos, sou solteiro, e moro com meus pais em belo horizonte ainda. acha q é hora de sair de casa? to meio perdido",
            e("identity", "29"),
            e("fact", "belo horizonte"),
        ),
        u("ganho uns 4500 liquido, da pra alugar algo sozinho?"),
        u("faz uma planilha simples de orçamento mensal pra eu ver"),
    ),
    group(
        ("Lu", "Gabi"),
        by(
            "Lu",
            "ia, a gente tá montando uma startup de delivery de marmita fitness em Sampa e precisa de um pitch de 1 minuto",
        ),
        by(
            "Gabi",
            "eu sou nutricionista então dá pra colocar que os cardápios são feitos por profissional",
            e("identity", "Gabi", "nutricionista", forbid=("usuario",)),
        ),
        by(
            "Lu",
            "e eu cuido do marketing, trabalhei 4 anos na ifood antes disso",
            e("fact", "Lu", "ifood", forbid=("usuario",)),
        ),
        by("Gabi", "deixa mais empolgante, tipo shark tank"),
    ),
    chat(
        u(
            "btw podes usar sempre unidades métricas e graus celsius comigo, às vezes dás-me coisas em fahrenheit",
            e("instruction", "celsius"),
        ),
        u("qual a temperatura ideal para cozinhar um bife mal passado no interior?"),
        u("e médio?"),
    ),
    chat(
        u(
            "preciso fazer uma apresentação de 10 slides sobre sustentabilidade pra faculdade, me dá a estrutura"
        ),
        u(
            "o professor pediu foco em empresas brasileiras. faço administração na UFPR, 5o periodo, se ajudar no nivel",
            e("fact", "administra"),
        ),
        u("coloca natura e ambev como exemplo"),
        u("pode ser menos texto por slide"),
    ),
    chat(
        u(
            "qual a melhor maneira de guardar segredos numa app django? estou a usar o .env mas li que não é boa prática em produção"
        ),
        u(
            "estamos no aws, então secrets manager? sou o único dev backend numa startup de saúde pequena, não há devops",
            e("identity", "backend"),
        ),
        u(
            "e já agora, responde-me sempre em tópicos curtos, não gosto de paredes de texto",
            e("instruction", "topicos"),
        ),
        u("mostra-me um exemplo com boto3"),
        u(
            "isto dá-me:\nbotocore.exceptions.NoCredentialsError: Unable to locate credentials\n\nlocalmente, no meu portátil. em produção corre em ECS"
        ),
        u(
            "ok, com o aws configure --profile resolveu. e como faço para o settings.py não rebentar nos testes do pytest, onde não há aws nenhum?"
        ),
        u("prefiro a tua segunda opção, com o fallback para variáveis de ambiente"),
        u("perfeito, obrigado. isto vai direto para o PR de amanhã"),
    ),
    chat(
        u(
            "eu amo cozinhar comida japonesa, ja faço sushi em casa faz uns anos, mas nunca acertei o ramen. qual o segredo do caldo tonkotsu?",
            e("preference", "japones"),
            e("skill", "sushi"),
        ),
        u("12 horas?? nossa"),
        u("tem versão na panela de pressão?"),
    ),
)
