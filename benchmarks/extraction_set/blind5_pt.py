# ruff: noqa: E501  (message texts are data: kept on one line each)
"""The fifth blind held-out batch of Portuguese conversations of the extraction evaluation set (ids
`pt-blind5-*`, split `heldout`, never used for tuning): one-person chats and four group conversations
in Brazilian and European Portuguese, about half each, with pasted code, tracebacks, e-mails, job posts,
role-play, text to translate or proofread, hypotheticals, talk about other people and task-level
first-person statements beside genuine self-disclosure. It was written blind, from the writer's own
knowledge of how people talk to chat assistants, without reading the extractor, its tests, the
benchmark or any other conversation of the set; only `turns.py`'s shape was used."""

from __future__ import annotations

from typing import Final

from turns import Conversation, by, chat, e, group, u

CONVERSATIONS: Final[tuple[Conversation, ...]] = (
    chat(
        u(
            "alguem me explica pq esse merge ta duplicando linhas??\n\n```python\ndf = pd.merge(vendas, clientes, on='cpf', how='left')\nprint(len(vendas), len(df))\n```\nsaida: 10234 11870"
        ),
        u(
            "ah entendi, tem cpf repetido na tabela de clientes. como eu removo mantendo so o registro mais recente? a coluna de data é data_cadastro"
        ),
        u(
            "valeu. btw trabalho como analista de dados numa fintech aqui em belo horizonte, a gente usa pandas pra tudo, entao pode pular a parte basica nas proximas",
            e("identity", "analista de dados"),
            e("fact", "belo horizonte"),
            e("environment", "pandas"),
            e("instruction", "basic"),
        ),
        u("e se eu quiser fazer isso no sql direto em vez do pandas? é bigquery"),
    ),
    chat(
        u(
            'podes reescrever este email para ficar mais formal? é para o senhorio\n\n"Olá Sr. Fernandes, a torneira da cozinha está a pingar há duas semanas e eu já liguei três vezes. Preciso que mande alguém até sexta porque tenho visitas. Cumprimentos, Inês"'
        ),
        u("ficou demasiado formal agora ahah, algo no meio termo"),
        u(
            "perfeito. já agora, arrendo este T2 em Braga desde março e o contrato acaba em fevereiro. ele pode aumentar a renda acima do coeficiente do governo?",
            e("fact", "braga"),
        ),
        u("e se eu quiser sair antes, com quanto tempo tenho de avisar?"),
    ),
    chat(
        u(
            "quero q vc atue como um cliente muito irritado de uma operadora de celular e eu vou ser o atendente. vc começa. seja bem chato"
        ),
        u(
            "Cliente, entendo sua frustração. Pode me passar o número do protocolo e o CPF do titular pra eu verificar o que aconteceu com o seu sinal?"
        ),
        u(
            "Senhor, verifiquei aqui e tem uma manutenção na antena da sua região, a previsão é normalizar até amanhã às 18h. Posso aplicar um desconto proporcional na sua fatura"
        ),
        u(
            "kkkk foi bom. eu trabalho de verdade num call center de telecom faz 2 anos e to treinando pq abriu processo seletivo pra supervisor, me da feedback de como eu me saí",
            e("identity", "call center"),
            e("goal", "supervisor"),
        ),
    ),
    chat(
        u(
            "tenho um jantar no sábado para 6 pessoas, dá-me ideias de pratos principais sem carne nem peixe. sou vegetariana há uns 10 anos e já não posso ver lasanha de legumes à frente",
            e("fact", "vegetarian"),
        ),
        u(
            "gosto da ideia do caril de grão mas um dos convidados não come picante, consegues adaptar?"
        ),
        u("e uma sobremesa que dê para fazer na véspera"),
    ),
    chat(
        u(
            "se eu morasse no japao quanto precisaria ganhar por mes pra viver de boa em toquio? sozinho, sem carro"
        ),
        u("e em osaka? é muito mais barato?"),
        u(
            "to perguntando pq to estudando japonês faz uns 8 meses e o plano é fazer intercâmbio lá em 2026",
            e("goal", "japones"),
            e("goal", "intercambio"),
        ),
        u("quais bolsas existem pra brasileiro?"),
    ),
    group(
        ("Tiago", "Marta"),
        by(
            "Tiago",
            "ok vamos lá organizar o fim de semana nos Açores. eu só consigo sair na sexta à tarde, tenho reunião de manhã",
        ),
        by(
            "Marta",
            "eu vou de Coimbra, onde vivo, e sinceramente prefiro ficar só em São Miguel do que andar a saltar de ilha em ilha",
            e("fact", "Marta", "coimbra", forbid=("usuario",)),
        ),
        by(
            "Tiago",
            "por mim ok. pede ao assistente um roteiro de 3 dias com trilhos, que eu sou doido por caminhadas",
            e("preference", "Tiago", "caminhada", forbid=("usuario",)),
        ),
        by(
            "Marta",
            "e lembra-te que sou celíaca, nada de glúten nos restaurantes que ele sugerir",
            e("fact", "Marta", "celiac", forbid=("usuario",)),
        ),
        by(
            "Tiago",
            "assistente: faz o roteiro e põe restaurantes sem glúten em Ponta Delgada, por favor",
        ),
    ),
    chat(
        u(
            "corrige minha redação pro enem, tema: desafios da saúde mental dos jovens no brasil\n\nNa sociedade contemporânea, eu acredito que a saúde mental dos jovens é um tema de extrema importância. Segundo a OMS, o Brasil é o país mais ansioso do mundo. Dessa forma, a falta de acesso a psicólogos na rede pública e o uso excessivo das redes sociais são os principais problemas. Eu mesmo conheço muitas pessoas que sofrem com isso. Portanto, o Ministério da Saúde deve ampliar os CAPS, por meio de investimento, a fim de garantir atendimento para todos."
        ),
        u("que nota vc daria de 0 a 1000? seja sincero"),
        u("pq eu tiro essa frase 'eu mesmo conheço'? a professora falou q pode"),
        u(
            "vou fazer o enem pela segunda vez esse ano, quero muito passar em medicina na ufba, entao preciso de 900+",
            e("goal", "medicina"),
        ),
    ),
    chat(
        u(
            'estou a fazer uma extensão para o chrome que esconde os comentários do youtube. já tenho o manifest v3 mas o content script não corre\n\n```json\n{\n  "manifest_version": 3,\n  "name": "Sem Comentarios",\n  "version": "0.1",\n  "content_scripts": [{\n    "matches": ["https://youtube.com/*"],\n    "js": ["content.js"]\n  }]\n}\n```',
            e("project", "youtube"),
        ),
        u("funcionou!! agora queria um botão para ligar e desligar, no canto superior direito"),
        u(
            "e como é que faço debug disto no vs code? uso sempre o vs code com o vim mode, num macbook air m2",
            e("environment", "code"),
            e("environment", "macbook"),
        ),
        u("ok, consegui pôr breakpoints. obrigado"),
    ),
    chat(
        u("qual a diferença entre creme de leite e nata?"),
        u("kkk minha vó sempre usava nata no bolo dela e eu nunca entendi"),
        u("me passa uma receita de bolo de cenoura que nao precise de batedeira"),
    ),
    chat(
        u(
            "mudei de emprego na semana passada, saí da Sonae e agora estou na Farfetch como product designer. preciso de ajuda para preparar a apresentação dos primeiros 30-60-90 dias",
            e("fact", "farfetch", forbid=("sonae",)),
            e("identity", "product designer"),
        ),
        u("o meu manager quer uma coisa muito visual, pouco texto"),
        u(
            "podes pôr isso em tópicos curtos? e daqui para a frente responde-me sempre em português de Portugal, nada de 'você' nem 'tela'",
            e("instruction", "portugal"),
        ),
        u("top, obrigada"),
    ),
    chat(
        u(
            'to tomando esse erro no django, alguem ajuda\n\nTraceback (most recent call last):\n  File "/home/lucas/pedidos/manage.py", line 22, in <module>\n    main()\n  File "/home/lucas/pedidos/venv/lib/python3.11/site-packages/django/db/backends/sqlite3/base.py", line 328, in execute\n    return super().execute(query, params)\ndjango.db.utils.OperationalError: no such table: core_pedido'
        ),
        u("rodei makemigrations e migrate e continua igual"),
        u(
            "achei kkkk o settings tava apontando pra outro sqlite. aproveitando: esse projeto é um sistema de pedidos que eu to fazendo pra padaria do meu tio, vai pra produção mes que vem e quero passar pro postgres",
            e("project", "padaria"),
        ),
        u("qual o jeito mais seguro de migrar os dados sem perder nada?"),
    ),
    chat(
        u(
            "tenho asma desde miúdo e quero começar a correr, que cuidados devo ter? ando a pensar fazer a meia maratona de Lisboa em março",
            e("fact", "asma"),
            e("goal", "maratona"),
        ),
        u("faz-me um plano de 12 semanas, neste momento consigo correr uns 5 km sem parar"),
        u("põe isso numa tabela por semana"),
    ),
    chat(
        u(
            "traduz pro inglês: 'Sou enfermeira há 12 anos, moro em Curitiba e tenho dois filhos. Busco uma vaga em home care no Canadá, tenho disponibilidade imediata.'"
        ),
        u("ficou mt formal, deixa mais natural"),
        u("agora em francês tb"),
        u("é pra minha prima, ela ta tentando ir pro quebec com a familia"),
    ),
    chat(
        u(
            "tenho um portátil com ubuntu 22.04 e o monitor externo deixa de ser detetado depois de suspender. placa nvidia",
            e("environment", "ubuntu"),
        ),
        u(
            "já tentei o nvidia-smi, dá isto:\n\nNVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running."
        ),
        u("instalei o driver 535 e reiniciei, já deteta. valeu!!"),
    ),
    group(
        ("Bruna", "Caio", "Davi"),
        by(
            "Bruna",
            "gente, o hackathon é sábado. eu fico com o front, mexo com react faz uns 4 anos",
            e("skill", "Bruna", "react", forbid=("usuario",)),
        ),
        by(
            "Caio",
            "eu pego o backend, mas só sei python, node nem pensar",
            e("skill", "Caio", "python", forbid=("usuario",)),
        ),
        by(
            "Davi",
            "eu faço o pitch, sou do marketing e nunca programei na vida lol",
            e("identity", "Davi", "marketing", forbid=("usuario",)),
        ),
        by(
            "Bruna",
            "assistente, sugere umas ideias de app de sustentabilidade que dê pra fazer em 24h",
        ),
        by("Caio", "a segunda ideia é a mais legal, detalha ela com as telas"),
    ),
    chat(
        u(
            "vi esta vaga no linkedin, o que achas?\n\nEngenheiro(a) de Software Sénior – Mobile\nLisboa (híbrido, 2 dias no escritório)\nO que procuramos:\n- 5+ anos de experiência em desenvolvimento Android nativo\n- Kotlin, Jetpack Compose, Coroutines\n- Experiência com CI/CD e testes automatizados\n- Inglês fluente\nOferecemos: seguro de saúde, 25 dias de férias, orçamento para formação"
        ),
        u(
            "é que só tenho 3 anos de kotlin, sou programador android na Critical Software desde que acabei o curso. achas que vale a pena candidatar-me na mesma?",
            e("skill", "kotlin"),
            e("identity", "android"),
            e("fact", "critical"),
        ),
        u("escreve-me uma carta de apresentação curta"),
        u("está muito bajuladora, tira metade dos adjetivos"),
    ),
    chat(
        u(
            "minha gata, a Pipoca, parou de comer a ração desde ontem. ela tem 7 anos e é castrada, é motivo pra levar no vet?",
            e("relationship", "pipoca"),
        ),
        u("ela ta bebendo agua normal e fazendo xixi normal tb"),
        u("ok vou levar amanhã cedo entao"),
    ),
    chat(
        u("qual é a capital da austrália? apostei com um colega que era sydney"),
        u("ahah perdi 5 euros então"),
        u("e porque é que não é sydney se é a maior cidade?"),
    ),
    chat(
        u(
            "a partir de agora quero q vc me responda sempre em tópicos e no máximo 5 linhas, odeio textão",
            e("instruction", "linhas"),
        ),
        u("o que é inflação de serviços?"),
        u("e pq o banco central sobe a selic pra controlar isso?"),
        u("ainda ficou grande, menor"),
    ),
    chat(
        u(
            "estou no 2º ano de engenharia informática no Técnico e tenho exame de Análise Matemática II para a semana. explica-me integrais duplos em coordenadas polares",
            e("fact", "informatic"),
        ),
        u("não percebi a parte do jacobiano, porque é que aparece o r?"),
        u("dá-me 3 exercícios com solução"),
        u("o segundo está mal, o r vai de 0 a 2 e não de 0 a 1"),
    ),
    chat(
        u(
            "resume essa ata em 5 bullets pro email\n\nReunião de alinhamento – 12/03\nPresentes: João, Mariana, Pedro, eu\n- João informou que vai se mudar pra Recife em maio e segue remoto\n- Mariana apresentou o novo fluxo de aprovação de compras, que passa a ter dois níveis\n- Pedro pediu prioridade para o bug do relatório fiscal\n- Definido que o sprint review passa pra quinta às 15h\n- Eu fiquei de atualizar a documentação do onboarding até dia 20"
        ),
        u("deixa o tom mais neutro e tira os nomes, só cargos"),
    ),
    chat(
        u(
            "falo português e inglês fluente e um pouco de alemão. quero chegar ao B2 de alemão até ao fim do ano porque em janeiro vou mudar-me para Munique",
            e("skill", "ingles"),
            e("skill", "alemao"),
            e("goal", "b2"),
            e("goal", "munique"),
        ),
        u("que apps recomendas além do duolingo?"),
        u("e podcasts para nível intermédio?"),
    ),
    chat(
        u(
            "to tentando fazer esse regex pegar cpf com e sem pontuação mas não ta pegando o segundo\n\n```js\nconst re = /\\d{3}\\.\\d{3}\\.\\d{3}-\\d{2}/g;\nconst txt = 'cpfs: 123.456.789-09 e 98765432100';\nconsole.log(txt.match(re));\n```"
        ),
        u("quero que a função retorne uma lista só com os números, sem ponto nem traço"),
        u("gostei mais da segunda versão, mas dá pra validar o dígito verificador tb?"),
    ),
    chat(
        u(
            "a minha filha de 4 anos acorda todas as noites às 3h a chorar e já tentámos de tudo. ideias?",
            e("relationship", "filha"),
        ),
        u("ela dorme no quarto dela desde os 2"),
        u(
            "o meu marido trabalha por turnos e quando chega às 2h às vezes acorda-a, o que também não ajuda",
            e("relationship", "marido"),
        ),
        u("obrigada, vamos experimentar a rotina esta semana"),
    ),
    chat(
        u(
            "preciso montar um deck pro meu manager explicando o churn do Q3. sou product manager numa startup de edtech em são paulo, me ajuda com o storytelling?",
            e("identity", "product manager"),
            e("fact", "edtech"),
            e("fact", "paulo"),
        ),
        u(
            "os numeros: churn foi de 4.2% pra 6.8%, principalmente no plano mensal, e o NPS caiu 9 pontos"
        ),
        u("faz um slide de next steps tb, bem actionable, sem enrolação"),
    ),
    chat(
        u(
            "um amigo meu vive em Zurique e diz que lá os salários compensam tudo. se eu fosse para lá trabalhar em hotelaria quanto ganharia mais ou menos?"
        ),
        u("e quanto custa um T1 lá?"),
        u("pois, afinal não compensa assim tanto lol"),
    ),
    chat(
        u(
            "tenho intolerância a lactose e to tentando ganhar massa faz uns meses, monta uma dieta de 2800 kcal sem leite",
            e("fact", "lactose"),
            e("goal", "massa"),
        ),
        u("tira o ovo do café da manhã, não suporto ovo cozido", e("preference", "ovo")),
        u("pode trocar o frango do jantar por peixe?"),
        u("e quanto isso fica por semana no mercado, mais ou menos?"),
    ),
    group(
        ("Rita", "Nuno"),
        by(
            "Rita",
            "vamos mesmo começar o podcast sobre futebol feminino! para quem não sabe, sou jornalista desportiva no Record há seis anos",
            e("identity", "Rita", "jornalista", forbid=("usuario",)),
            e("fact", "Rita", "record", forbid=("usuario",)),
        ),
        by(
            "Nuno",
            "eu trato da edição, edito tudo no Audacity há anos",
            e("environment", "Nuno", "audacity", forbid=("usuario",)),
        ),
        by("Rita", "pede-lhe nomes para o podcast, qualquer coisa com trocadilho"),
        by("Nuno", "o terceiro é horrível ahah, mais opções"),
        by(
            "Rita",
            "gosto do 'Fora de Jogo Delas', escreve uma descrição de 2 linhas para o Spotify",
        ),
    ),
    chat(
        u(
            "me mudei de Fortaleza pra Porto Alegre mês passado e to morrendo de frio kkk, que roupa comprar pro inverno sem gastar muito?",
            e("fact", "porto alegre", forbid=("fortaleza",)),
        ),
        u("brechó vale a pena pra casaco?"),
        u("valeu!!"),
    ),
    chat(
        u(
            "preciso que esta query devolva só o último registo de cada cliente\n\n```sql\nSELECT c.id, c.nome, e.data_encomenda, e.total\nFROM clientes c\nJOIN encomendas e ON e.cliente_id = c.id\nWHERE e.estado = 'pago'\nORDER BY e.data_encomenda DESC;\n```\na base é postgres 15"
        ),
        u("o DISTINCT ON funciona mas está lento, a tabela tem 8 milhões de linhas"),
        u("criei o índice que sugeriste e passou de 14s para 300ms, obrigado!!"),
    ),
    chat(
        u(
            "toco violão há uns 15 anos mas nunca aprendi teoria musical direito, e finalmente quero aprender. por onde começo?",
            e("skill", "violao"),
            e("goal", "teoria"),
        ),
        u("explica o campo harmônico de sol maior"),
        u("e quais acordes usar numa progressão mais MPB tipo bossa"),
    ),
    chat(
        u(
            'revê-me esta carta de motivação, erros e pontuação só\n\n"Exmos. Senhores,\nChamo-me Joana Figueiredo, tenho 28 anos e sou farmacêutica comunitária há cinco anos no distrito de Leiria. Venho por este meio candidatar-me à vaga de Delegada de Informação Médica, função que considero o passo natural na minha carreira. Sou uma pessoa dinâmica, organizada e com grande facilidade de comunicação."'
        ),
        u("muda 'Venho por este meio' para algo menos antiquado"),
        u("btw a carta é da minha irmã, ela está sem tempo esta semana"),
    ),
    chat(
        u(
            "vamos jogar rpg? vc é o mestre. eu sou Thalion, um elfo ladino que mora na floresta de Vael e odeia anões"
        ),
        u("Thalion se esconde atrás da carroça e tenta roubar a bolsa do mercador"),
        u("rolo furtividade: 17"),
        u("ele corre pra taverna e pede um quarto com nome falso"),
    ),
    chat(
        u(
            "tenho um iphone 13 e um portátil windows, qual é a melhor forma de passar fotos de um para o outro sem cabo?",
            e("environment", "iphone"),
            e("environment", "windows"),
        ),
        u("o icloud para windows é fiável?"),
        u("ok vou experimentar isso"),
    ),
    chat(
        u(
            "faço 40 anos mês que vem e quero uma festa pequena em casa, umas 20 pessoas. me ajuda a montar um cardápio estilo boteco?",
            e("identity", "40"),
        ),
        u("tem gente vegana, inclui umas opções"),
        u("e drinks sem álcool tb, pelo menos uns 3"),
    ),
    chat(
        u(
            "sou professora de inglês numa secundária em Setúbal e preciso de uma ficha sobre o present perfect para o 9º ano",
            e("identity", "professor"),
            e("fact", "setubal"),
        ),
        u("faz mais 5 frases com lacunas"),
        u("e as soluções numa página à parte"),
        u(
            "obrigada. para a próxima lembra-te de que os meus alunos têm no máximo nível A2, nada de vocabulário difícil",
            e("instruction", "a2"),
        ),
    ),
    group(
        ("Lara", "Gabi"),
        by(
            "Lara",
            "a gente divide ap aqui em Campinas e quer dividir as contas de um jeito justo",
            e("fact", "Lara", "campinas", forbid=("usuario",)),
        ),
        by(
            "Gabi",
            "eu ganho menos pq ainda sou estagiária, entao acho que proporcional à renda faz mais sentido",
            e("identity", "Gabi", "estagi", forbid=("usuario",)),
        ),
        by(
            "Lara",
            "justo. assistente, monta uma planilha com aluguel 2400, luz, internet e mercado",
        ),
        by(
            "Gabi",
            "e inclui a ração do Thor, nosso cachorro kkkk",
            e("relationship", "Gabi", "thor", forbid=("usuario",)),
        ),
        by("Lara", "perfeito, agora faz uma versão pra colar no google sheets"),
    ),
    chat(
        u(
            "alguém me safa? dá este erro\n\nTraceback (most recent call last):\n  File \"C:\\Users\\rmendes\\projetos\\relatorio\\main.py\", line 1, in <module>\n    import numpy as np\nModuleNotFoundError: No module named 'numpy'"
        ),
        u(
            "estou no windows 11 com python 3.12 e fiz pip install numpy, diz que já está instalado",
            e("environment", "windows"),
        ),
        u(
            "era o interpretador errado no pycharm, já está. é sempre a mesma coisa com o pycharm, mas não o largo",
            e("environment", "pycharm"),
        ),
    ),
    chat(
        u(
            "quero abrir minha própria cafeteria daqui uns 2 anos. hoje sou barista numa rede grande aqui em floripa, como começo um plano de negócios?",
            e("goal", "cafeteria"),
            e("identity", "barista"),
            e("fact", "flori"),
        ),
        u("quanto custa mais ou menos uma máquina de espresso de 2 grupos?"),
        u("faz uma tabela de custos iniciais"),
        u("coloca uma coluna de 'opção usada' também"),
    ),
    chat(
        u(
            "corrige o inglês disto, é para o meu blog de viagens que estou a tentar pôr a andar: 'Last summer I have lived in Bali for three months and I feel like a different person since.'",
            e("project", "blog"),
        ),
        u(
            "e isto: 'The people there is very welcoming, even when you doesn't speak the language.'"
        ),
        u("obrigado! sugere um título para o post"),
    ),
    chat(
        u("qual o melhor filme do studio ghibli na sua opinião?"),
        u("eu amo a viagem de chihiro, ja vi umas 10 vezes", e("preference", "chihiro")),
        u("me recomenda outros parecidos, pode ser fora do ghibli"),
    ),
    chat(
        u(
            "daqui em diante usa sempre sistema métrico e graus celsius, estou farto de receitas americanas em cups",
            e("instruction", "metric"),
        ),
        u("converte esta: 2 cups flour, 1 stick butter, 3/4 cup sugar, bake at 350F for 25 min"),
        u("e no forno a gás, qual é a marca?"),
    ),
    chat(
        u(
            "larguei o vscode e agora uso neovim, como configuro o lsp pra typescript?",
            e("environment", "neovim", forbid=("vscode", "vs code")),
        ),
        u(
            "colei teu init.lua e deu isso:\n\nError detected while processing /home/gui/.config/nvim/init.lua:\nE5113: Error while calling lua chunk: /home/gui/.config/nvim/init.lua:3: module 'lspconfig' not found:\n        no field package.preload['lspconfig']"
        ),
        u("instalei pelo lazy.nvim e agora foi"),
        u("como faço pro format on save usar o prettier?"),
    ),
    chat(
        u(
            'responde esse email do meu chefe pra mim\n\n"Oi Fernanda, tudo bem? Preciso do relatório de turnover do trimestre até sexta, a diretoria vai apresentar na segunda. Consegue? Abs, Ricardo"'
        ),
        u(
            "diz que não consigo entregar sexta pq to de atestado até quarta, mas que mando segunda cedo"
        ),
        u(
            "ah e assina como Fernanda Lima, Coordenadora de RH",
            e("identity", "fernanda"),
            e("identity", "coordenadora"),
        ),
    ),
    chat(
        u(
            "o meu filho está no 5º ano e não percebe frações de maneira nenhuma. como é que lhe explico?",
            e("relationship", "filho"),
        ),
        u("com pizza já tentei lol"),
        u("dá-me uns exercícios com desenhos"),
    ),
    chat(
        u(
            "sou brasileira mas cresci no Japão, meus pais foram dekasseguis, e hoje moro em Londrina. quero escrever um texto sobre identidade pro meu instagram",
            e("identity", "brasileir"),
            e("fact", "japao"),
            e("fact", "londrina"),
        ),
        u("deixa menos dramático"),
        u("adiciona um final mais leve, com humor"),
    ),
    chat(
        u(
            "tenho 31 anos, ganho 1400 limpos por mês e quero começar a investir. vale mais a pena um PPR ou ETFs?",
            e("identity", "31"),
            e("goal", "invest"),
        ),
        u("e que corretora, degiro ou trade republic?"),
        u("ok obrigado, vou pensar"),
    ),
    chat(
        u(
            "me recomenda bandas parecidas com Boogarins e Terno Rei, é o que mais escuto ultimamente",
            e("preference", "boogarins"),
        ),
        u("nada de sertanejo pfv kkk detesto", e("preference", "sertanejo")),
        u("faz uma playlist de 15 músicas com essas"),
    ),
    chat(
        u("qual a diferença entre git rebase e git merge?"),
        u("e quando é que devo usar squash?"),
        u("explica-me como se eu tivesse 10 anos"),
    ),
    chat(
        u(
            'meu codigo da NullPointerException e eu nao sei pq\n\n```java\npublic class Biblioteca {\n    private List<Livro> livros;\n\n    public void adicionar(Livro l) {\n        livros.add(l);\n    }\n\n    public static void main(String[] args) {\n        Biblioteca b = new Biblioteca();\n        b.adicionar(new Livro("Dom Casmurro"));\n    }\n}\n```\n\nException in thread "main" java.lang.NullPointerException: Cannot invoke "java.util.List.add(Object)" because "this.livros" is null'
        ),
        u(
            "ahhh tinha q inicializar a lista. é trabalho da faculdade, faço ADS no IFSP à noite",
            e("fact", "ifsp"),
        ),
        u("como eu faço pra remover um livro pelo título?"),
    ),
    chat(
        u(
            "fui diagnosticado com diabetes tipo 2 em setembro, que pequenos-almoços posso fazer?",
            e("fact", "diabetes"),
        ),
        u("não gosto nada de aveia, nunca gostei", e("preference", "aveia")),
        u("e lanches para levar para o trabalho?"),
        u("o pão de centeio conta como bom?"),
    ),
    chat(
        u(
            "vou casar em outubro com o Rafa e a gente quer fazer lua de mel na patagônia, me ajuda com um roteiro de 10 dias?",
            e("relationship", "rafa"),
        ),
        u(
            "a gente prefere mil vezes natureza e trekking do que cidade",
            e("preference", "trekking"),
        ),
        u("quanto fica mais ou menos por pessoa, sem o voo?"),
    ),
    chat(
        u(
            "act as a French teacher. corrige-me as frases e explica os erros em português: 'Je suis allé à la plage hier et j'ai mangé une glace avec mes amis. Nous avons nagé beaucoup.'"
        ),
        u("e 'Si j'aurais le temps, je viendrais'"),
        u("mais 3 exercícios com o conditionnel, por favor"),
    ),
    chat(
        u(
            "reescreve essa msg pro grupo da faculdade mais educada: 'gente o Vitor sumiu de novo e deixou a parte dele do trabalho pra gente, ele falou que ta morando em Niterói agora e não consegue vir'"
        ),
        u("menos passivo agressivo kkk"),
    ),
    chat(
        u(
            "sou de Viseu mas vivo em Londres há 6 anos, trabalho como chef de partida num restaurante em Shoreditch. queria um menu de degustação português com um twist, 5 momentos",
            e("identity", "viseu"),
            e("fact", "londres"),
            e("identity", "chef"),
        ),
        u("o terceiro prato tem de ser com bacalhau, é obrigatório lol"),
        u("e harmonização de vinhos portugueses para cada um"),
    ),
    chat(
        u(
            "oi! sou pessoa não-binária e uso pronomes elu/delu, pode usar linguagem neutra comigo sempre?",
            e("identity", "elu"),
            e("instruction", "neutra"),
        ),
        u("me explica como funciona o imposto de renda pra quem é MEI"),
        u("e se eu passar do limite de faturamento?"),
    ),
    chat(
        u(
            "ando a escrever um romance policial passado no Porto dos anos 80, já vou em 40 mil palavras. preciso de nomes credíveis para o inspetor e para o ajudante dele",
            e("project", "romance"),
        ),
        u(
            "estou encravada no capítulo 7: o principal suspeito tem um álibi perfeito e não sei como o desmontar sem parecer batota"
        ),
        u("gosto mais da segunda reviravolta, a do bilhete de comboio"),
        u("escreve o diálogo do interrogatório, seco, pouca adjetivação"),
    ),
    chat(
        u(
            "troquei o android por um iphone 15 há uma semana e ainda ando perdido. como é que ponho o telemóvel a mostrar a percentagem da bateria?",
            e("environment", "iphone", forbid=("android",)),
        ),
        u("o whatsapp não passou as conversas todas do android, há forma de recuperar?"),
        u("e como ponho o teclado em pt-pt e não pt-br?"),
    ),
    chat(
        u(
            "tenho um cão, o Farrusco, um rafeiro de 9 anos com artrose. o veterinário receitou meloxicam, posso dar com a comida?",
            e("relationship", "farrusco"),
        ),
        u("ele está a coxear mais de manhã"),
        u(
            "o pior é que moro num 3º andar sem elevador em Almada e ele sofre imenso nas escadas",
            e("fact", "almada"),
        ),
        u("existem arneses que ajudem a levantar a parte de trás?"),
    ),
    chat(
        u(
            "sou dev frontend há 6 anos e to querendo migrar pra área de dados, vale a pena fazer uma pós ou só cursos online resolve?",
            e("identity", "frontend"),
            e("goal", "dados"),
        ),
        u(
            "detalhe: tenho 2 filhos pequenos, entao só consigo estudar depois das 21h",
            e("relationship", "filhos"),
        ),
        u("quais cursos vc recomenda? de preferencia em portugues"),
        u("quanto ganha um analytics engineer pleno hoje?"),
        u("monta um plano de estudos de 6 meses em formato de checklist"),
    ),
    chat(
        u("se vc pudesse morar em qualquer cidade do mundo qual seria?"),
        u("eu escolheria lisboa kkk"),
        u("uma amiga minha se mudou pra lá ano passado e não quer voltar nunca mais"),
        u("quanto ta custando um aluguel de 1 quarto lá hoje?"),
    ),
)
