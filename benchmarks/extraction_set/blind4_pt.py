# ruff: noqa: E501  (message texts are data: kept on one line each)
"""The fourth blind held-out batch of Portuguese conversations of the extraction evaluation set (ids `pt-blind4-*`, split `heldout`, never used for tuning): about half Brazilian and half European Portuguese chats and a few group conversations, over a wide mix of topics, with requests, pasted code, e-mails, role-play, translations, hypotheticals and talk about other people beside genuine self-disclosure. It was written blind, without reading the extractor, its tests, the benchmark or any other conversation of the set; only `turns.py`'s shape was used."""

from __future__ import annotations

from typing import Final

from turns import Conversation, by, chat, e, group, u

CONVERSATIONS: Final[tuple[Conversation, ...]] = (
    chat(
        u(
            "oi, preciso de ajuda com uma planilha do excel, tenho uma coluna com datas no formato texto tipo 03/11/2024 e quero converter pra data de verdade"
        ),
        u(
            "deu certo mas agora as que tem dia maior que 12 ficaram erradas, acho que ta invertendo mes e dia"
        ),
        u(
            "ah sim, meu excel ta em ingles pq o notebook é da empresa, trabalho como analista financeira na Ambev e eles padronizaram tudo em en-us",
            e("identity", "analista financeir"),
            e("fact", "Ambev"),
        ),
        u("valeu!! funcionou"),
    ),
    chat(
        u(
            'olá, podes rever este email antes de eu o enviar? "Caro Sr. Fonseca, venho por este meio informar que não poderei comparecer à reunião de dia 14 por motivos de saúde. Estou disponível para reagendar na semana seguinte. Com os melhores cumprimentos, Teresa"'
        ),
        u("está demasiado formal? é para o meu chefe mas a gente trata-se por tu no dia a dia"),
        u("ok prefiro a segunda versão, manda só essa limpinha"),
    ),
    chat(
        u("me explica a diferença entre let, const e var em javascript de um jeito simples"),
        u(
            "e no caso de um for com setTimeout dentro? pq meu professor falou que com var da problema"
        ),
        u(
            "to fazendo ciencia da computação na UFMG, tô no terceiro periodo e essa materia de web ta me matando kkk",
            e("fact", "ciencia da computa"),
            e("fact", "UFMG"),
        ),
        u("entendi agora, obg"),
    ),
    chat(
        u(
            'Traduz para inglês por favor: "Sou enfermeira há vinte anos e nunca vi um serviço tão desorganizado. Moro em Coimbra e todos os dias faço uma hora de caminho para o hospital."'
        ),
        u(
            "É para uma personagem de um conto que estou a escrever, não sou eu lol. Podes deixar o tom mais cansado?"
        ),
        u("perfeito, obrigada"),
    ),
    chat(
        u("qual a melhor forma de tirar mancha de vinho tinto de sofá de tecido?"),
        u("o sofá é bege claro, e a mancha ja secou faz uns dois dias"),
        u(
            "tenho dois gatos então nada muito tóxico pfv, o Biscoito e a Paçoca vivem em cima desse sofá",
            e("relationship", "Biscoito"),
            e("relationship", "Paçoca"),
        ),
        u("vou tentar o bicarbonato com vinagre entao"),
    ),
    chat(
        u(
            'a partir de agora responde-me sempre em português de Portugal, nada de "você" nem gerúndio brasileiro, ok?',
            e("instruction", "portugu", "portugal"),
        ),
        u("preciso de uma receita de bacalhau à brás para 6 pessoas"),
        u("posso usar batata palha de pacote ou fica horrível?"),
        u("fica a dica, obrigado"),
    ),
    chat(
        u(
            "Traceback (most recent call last):\n  File \"app.py\", line 42, in <module>\n    df = pd.read_csv(caminho, sep=';')\n  File \"/usr/lib/python3/dist-packages/pandas/io/parsers/readers.py\", line 912, in read_csv\n    return _read(filepath_or_buffer, kwds)\nUnicodeDecodeError: 'utf-8' codec can't decode byte 0xe7 in position 1534: invalid continuation byte\n\no que é isso??"
        ),
        u("o arquivo veio de um sistema antigo da prefeitura, acho q é latin1 mesmo"),
        u(
            "funcionou com encoding='latin1'. agora quero que a função retorne uma lista de dicionarios em vez do dataframe"
        ),
        u(
            "uso o pycharm no ubuntu se fizer diferença pra rodar",
            e("environment", "pycharm"),
            e("environment", "ubuntu"),
        ),
    ),
    group(
        ("Inês", "Duarte"),
        by("Inês", "ok vamos planear a viagem aos Açores, quem trata de quê"),
        by(
            "Duarte",
            "eu trato do carro, já aluguei lá uma vez. e eu não como marisco de todo, sou alérgico, por isso vejam os restaurantes com isso em mente",
            e("fact", "Duarte", "marisco", forbid=("usuario",)),
        ),
        by(
            "Inês",
            "anotado. eu fico com os alojamentos, conheço bem São Miguel porque a minha avó é de lá",
        ),
        by("Duarte", "boa. bot, faz-nos um roteiro de 5 dias em São Miguel com trilhos e termas"),
        by(
            "Inês",
            "e não ponhas nada muito cedo de manhã, eu odeio acordar cedo nas férias",
            e("preference", "Inês", "acordar cedo", forbid=("usuario",)),
        ),
    ),
    chat(
        u("escreve um post pro linkedin anunciando que entrei num emprego novo"),
        u(
            "é que eu saí da Stone mês passado e agora sou product manager no Nubank, pode por isso",
            e("fact", "Nubank", forbid=("Stone",)),
            e("identity", "product manager"),
        ),
        u("ta muito meloso, corta pela metade e tira os emojis"),
        u('melhorou, mas troca "estou extremamente feliz" por algo menos clichê'),
    ),
    chat(
        u("Qual é a diferença entre IRS Jovem e o regime normal?"),
        u(
            "tenho 26 anos e este é o meu segundo ano a trabalhar por conta de outrem, dá para usar?",
            e("identity", "26"),
        ),
        u("e se eu passar a recibos verdes a meio do ano?"),
        u("ok, obrigado, vou ligar para as finanças na segunda"),
    ),
    chat(
        u(
            "faz de conta que vc é um recrutador de uma empresa de tecnologia e me entrevista pra uma vaga de dev backend junior"
        ),
        u(
            '"Olá, meu nome é Carlos, tenho 30 anos, sou formado em administração e estou migrando de carreira. Trabalho com Java há um ano em projetos pessoais." — essa seria minha resposta pra se apresentar, ta boa?'
        ),
        u(
            "na vdd eu nem me chamo carlos, é um roteiro que tô montando pro meu primo, ele que ta mudando de area"
        ),
        u("pode dar mais 5 perguntas tecnicas que costumam cair?"),
    ),
    chat(
        u("o meu cão está sempre a coçar as orelhas, o que pode ser?"),
        u("é um labrador de 4 anos, chama-se Tejo", e("relationship", "Tejo")),
        u("ele come ração de cordeiro com arroz, mudámos há um mês"),
        u("vou marcar veterinário então, obrigada"),
    ),
    chat(
        u("cria uma regex que valide cpf no formato 000.000.000-00"),
        u(
            "tô tentando fazer essa regex funcionar no input do formulario mas ela aceita letra no final"
        ),
        u("^\\d{3}\\.\\d{3}\\.\\d{3}-\\d{2} é o que eu tenho"),
        u("ahh faltou o $ kkkk obrigado"),
    ),
    chat(
        u(
            "bom dia! sou de Braga mas vivo em Lisboa há uns 6 anos, e queria ideias de sítios para levar os meus pais quando vierem cá no fim de semana",
            e("identity", "Braga"),
            e("fact", "Lisboa"),
        ),
        u("eles têm mais de 70 e o meu pai anda com dificuldade, portanto nada de muitas escadas"),
        u("o Oceanário é boa ideia. e para jantar, algo tradicional mas não muito caro?"),
        u("obrigado, vou reservar"),
    ),
    chat(
        u("quanto tempo leva pra cozinhar grão de bico na panela de pressão?"),
        u("deixei de molho a noite toda"),
        u(
            "é pra fazer homus, virei vegana faz uns 3 meses e to aprendendo a cozinhar tudo de novo kkk",
            e("fact", "vegan"),
        ),
        u("tem como fazer sem tahine? nao achei no mercado aqui"),
        u("beleza, vou de pasta de amendoim mesmo"),
    ),
    chat(
        u(
            'Corrige os erros deste parágrafo sem mudar o estilo: "A minha mãe nasceu em Luanda em 1958 e veio para Portugal com quinze anos. Eu cresci a ouvir as historias dela sobre a ilha e o mar, e sempre quiz lá ir."'
        ),
        u(
            'obrigada! e este: "Hoje trabalho como professora de história numa escola em Setúbal, e é isso que me leva a querer escrever estas memórias."',
            e("identity", "professora"),
            e("fact", "Setubal"),
        ),
        u(
            "sim, é um livro para a família, sobre a minha mãe, ando a escrevê-lo há um ano",
            e("project", "livro"),
        ),
        u("podes sugerir um título?"),
    ),
    chat(
        u("qual a diferença entre ssd nvme e sata na pratica pra jogo?"),
        u("meu pc tem uma placa mãe b450 se ajudar"),
        u("se eu tivesse grana eu montava um pc todo novo com 4090 mas né kkk"),
        u("vou pegar o nvme de 1tb entao"),
    ),
    chat(
        u("podes fazer-me um plano de treino de corrida para fazer uns 10 km em dois meses?"),
        u("neste momento corro uns 3 km e fico de rastos"),
        u(
            "tenho asma, esqueci-me de dizer, controlada com bomba mas convém ter cuidado",
            e("fact", "asma"),
        ),
        u("posso correr 3 vezes por semana, de manhã antes do trabalho"),
        u("top, obrigado"),
    ),
    chat(
        u(
            "me ajuda a escrever uma mensagem pro grupo do condominio reclamando do barulho de obra no sabado"
        ),
        u(
            "sem parecer chato, o povo aqui é sensivel e eu sou a síndica faz 2 anos, ja briguei demais",
            e("identity", "sindic"),
        ),
        u("pode mencionar que o regulamento diz que obra so de segunda a sexta das 8h as 17h"),
    ),
    chat(
        u(
            "from now on, quando eu pedir código, manda só o código sem explicação nenhuma, a menos que eu pergunte",
            e("instruction", "codigo", "explica"),
        ),
        u(
            "função em typescript que recebe um array de objetos {nome, idade} e devolve agrupado por faixa etária de 10 em 10"
        ),
        u("agora em python"),
        u("usa dataclass"),
    ),
    chat(
        u(
            "Olá. Estou a fazer o mestrado em engenharia civil no Técnico e a tese é sobre betão reciclado, consegues ajudar-me a estruturar o estado da arte?",
            e("fact", "engenharia civil"),
            e("fact", "Tecnico"),
            e("project", "betao reciclado"),
        ),
        u("o orientador quer no máximo 20 páginas nessa secção"),
        u("quero que as secções sigam a ordem cronológica, não por tema"),
        u("ok, e que bases de dados de artigos recomendas além do Scopus?"),
    ),
    chat(
        u("gente preciso de um nome pra uma loja de brigadeiro gourmet"),
        u(
            "a loja é minha, comecei vendendo brigadeiro em casa ano passado e agora vou abrir cnpj. quero algo curto, facil de lembrar, que funcione no instagram",
            e("project", "brigadeiro"),
        ),
        u("gostei do terceiro. tem como verificar se ja existe?"),
    ),
    chat(
        u("como faço para o git deixar de pedir a password sempre que faço push"),
        u(
            "estou no windows 11 com o vscode, e o repo é no gitlab da empresa",
            e("environment", "windows 11"),
            e("environment", "vscode"),
        ),
        u("já funcionou, era o credential manager"),
    ),
    chat(
        u(
            "minha filha de 7 anos ta com dificuldade em matematica, como posso ajudar ela em casa com subtração?",
            e("relationship", "filha"),
        ),
        u('ela trava quando precisa "pegar emprestado" da dezena'),
        u("ela adora lego, da pra usar isso?"),
        u("ótimo, vou tentar hoje a noite"),
    ),
    chat(
        u("explica-me como funciona o sistema de saúde em Espanha para estrangeiros da UE"),
        u("não é para mim, é um amigo meu que vai viver para Valência em janeiro"),
        u("ele vai trabalhar remotamente para uma empresa portuguesa, muda alguma coisa?"),
    ),
    chat(
        u("quais livros vc recomenda parecidos com Torto Arado?"),
        u(
            "amo literatura brasileira contemporanea, li quase tudo da Conceição Evaristo",
            e("preference", "literatura brasileira"),
        ),
        u("mas odeio livro de auto ajuda, nem recomenda", e("preference", "auto ajuda")),
        u("anotei aqui, vlw"),
    ),
    chat(
        u(
            "SELECT c.nome, SUM(p.valor) FROM clientes c JOIN pedidos p ON p.cliente_id = c.id WHERE p.data > '2024-01-01' GROUP BY c.nome HAVING SUM(p.valor) > 1000 ORDER BY 2 DESC;\n\nisso ta lento demais, a tabela de pedidos tem uns 40 milhoes de linhas"
        ),
        u("é postgres 14", e("environment", "postgres")),
        u("já tem indice em cliente_id mas não em data"),
        u("criei o indice composto e caiu de 40s pra 2s, valeu demais"),
    ),
    chat(
        u("escreve um poema curto sobre saudade, estilo Fernando Pessoa"),
        u("mais melancólico"),
        u(
            "gosto muito mais do Álvaro de Campos do que do Caeiro, tenta nessa linha",
            e("preference", "Alvaro de Campos"),
        ),
        u("está lindo, obrigada"),
    ),
    chat(
        u(
            "e ai, to pensando em largar o emprego CLT pra virar freelancer de design, quais os pros e contras?"
        ),
        u(
            "trabalho com design grafico faz uns 8 anos, mais com identidade visual",
            e("skill", "design", "8 anos"),
        ),
        u("e como funciona MEI pra designer?"),
        u(
            "se eu fosse freela ia querer morar na praia kkk mas enfim, e a aposentadoria como fica?"
        ),
    ),
    chat(
        u("preciso de um texto para o convite do batizado do meu sobrinho, algo simples"),
        u(
            "o nome dele é Martim e o batizado é em Viseu a 12 de maio, sou eu a madrinha",
            e("relationship", "Martim"),
        ),
        u("pode ser menos religioso? a família do pai não é muito de igreja"),
    ),
    chat(
        u(
            "to aprendendo alemão pq quero fazer mestrado em Munique daqui uns dois anos, que apps vc indica?",
            e("goal", "alem"),
            e("goal", "Munique"),
        ),
        u("já uso o duolingo mas sinto que não saio do lugar"),
        u("meu nivel é tipo A2"),
        u("vou testar o italki então"),
    ),
    chat(
        u(
            'Rescreve isto como se fosses um pirata: "Bom dia a todos, hoje vamos falar sobre as regras de segurança no laboratório."'
        ),
        u("mais exagerado ahah"),
        u(
            "é para abrir uma aula para miúdos do 5.º ano, sou professor de ciências",
            e("identity", "professor"),
        ),
    ),
    chat(
        u("qual o melhor horario pra ver a chuva de meteoros desse mes?"),
        u("moro em Campinas, o ceu aqui não é dos melhores", e("fact", "Campinas")),
        u("tem algum lugar perto que seja escuro? até umas 2h de carro"),
        u("valeu, vou tentar ir pra Joanópolis"),
    ),
    chat(
        u(
            "tenho este código em kotlin e o recyclerview não atualiza:\n\nclass ItemAdapter(private var itens: List<Item>) : RecyclerView.Adapter<ItemAdapter.VH>() {\n    fun atualizar(novos: List<Item>) {\n        itens = novos\n    }\n    override fun getItemCount() = itens.size\n    ...\n}"
        ),
        u("ah falta o notifyDataSetChanged claro. mas li que é melhor usar DiffUtil?"),
        u(
            "faço apps android há uns 3 anos mas sempre fui preguiçoso com isso lol",
            e("skill", "android", "3 anos"),
        ),
        u("podes mostrar com ListAdapter?"),
    ),
    chat(
        u(
            "quero fazer uma surpresa para a minha namorada no nosso aniversário de 3 anos, ideias em Lisboa?",
            e("relationship", "namorada"),
        ),
        u("ela adora fado e comida japonesa, não sei se dá para juntar as duas coisas ahah"),
        u("orçamento uns 150 euros"),
        u("a ideia do fado em Alfama e depois sushi parece-me bem"),
    ),
    chat(
        u("me dá uma lista de exercicios pra fazer em casa sem equipamento"),
        u("tenho uma hernia de disco na lombar, então nada de impacto", e("fact", "hernia")),
        u("pode montar em 3 dias por semana?"),
        u("valeu"),
    ),
    chat(
        u(
            'O que achas desta frase para o meu CV: "Profissional dinâmico com experiência em gestão de equipas multidisciplinares"?'
        ),
        u(
            "eu sei que é cliché, queres reescrever com base nisto: geri uma equipa de 12 pessoas na Sonae durante 4 anos, em logística",
            e("fact", "Sonae"),
            e("skill", "logistica"),
        ),
        u("em inglês também por favor, estou a candidatar-me para fora"),
        u(
            "quero mudar-me para a Holanda no próximo ano, por isso o CV é para lá",
            e("goal", "Holanda"),
        ),
    ),
    chat(
        u(
            'resume esse texto em 3 bullets:\n\n"A reforma tributária aprovada em 2023 unifica cinco tributos sobre o consumo em um IVA dual, composto pela CBS federal e pelo IBS de estados e municípios. A transição começa em 2026 e deve terminar em 2033, com alíquota de referência ainda a ser definida. Setores como saúde e educação terão alíquotas reduzidas."'
        ),
        u("ta bom mas mais curto"),
        u(
            "agora faz um tweet com isso, sou contador aqui em Recife e quero postar pros meus clientes",
            e("identity", "contador"),
            e("fact", "Recife"),
        ),
    ),
    group(
        ("Bruna", "Thiago", "Lívia"),
        by("Bruna", "galera, vamos decidir o tema do tcc do grupo hoje"),
        by(
            "Thiago",
            "eu voto em algo com machine learning, já mexo com pytorch faz 2 anos no estágio",
            e("skill", "Thiago", "pytorch", forbid=("usuario",)),
        ),
        by("Lívia", "eu topo mas não tenho experiencia nenhuma com isso"),
        by(
            "Bruna",
            "bot, sugere 5 temas de tcc de engenharia de software envolvendo ML que dê pra fazer em 1 semestre",
        ),
        by(
            "Lívia",
            "o segundo parece bom. ah e eu só posso me reunir a noite pq trabalho de dia numa clinica veterinaria",
            e("fact", "Lívia", "veterinari", forbid=("usuario",)),
        ),
        by("Thiago", "fechou, segundo tema entao"),
    ),
    chat(
        u(
            "mudei do vim pro neovim finalmente lol, como configuro o lsp pra python com lazy.nvim?",
            e("environment", "neovim"),
        ),
        u("deu erro: module 'lspconfig' not found"),
        u("ah tava com o nome do plugin errado. e pra formatar com black ao salvar?"),
        u("show, obrigado"),
    ),
    chat(
        u(
            "Imagina que eu morava no Japão, quanto é que gastava por mês em Tóquio a viver sozinho?"
        ),
        u("e em Osaka?"),
        u("só curiosidade, vi um vídeo no youtube ahah"),
    ),
    chat(
        u(
            'como digo "estou ansioso para começar" em inglês sem soar estranho num email de trabalho?'
        ),
        u('e "fico no aguardo"?'),
        u("falo ingles bem mas essas expressões de email sempre me pegam", e("skill", "ingles")),
    ),
    chat(
        u(
            "o meu marido e eu estamos a pensar comprar casa, vale a pena crédito a taxa fixa ou variável agora?",
            e("relationship", "marido"),
        ),
        u("o valor seria uns 250 mil, a 35 anos"),
        u("vivemos em Almada e queremos ficar na margem sul", e("fact", "Almada")),
        u("ok, obrigada pela explicação, vou simular no banco"),
    ),
    chat(
        u("qual a melhor forma de guardar senha no banco de dados em node?"),
        u("bcrypt ou argon2?"),
        u(
            "meu stack é node com express e mongo, se isso muda algo",
            e("environment", "express"),
            e("environment", "mongo"),
        ),
        u("blz, vou de argon2"),
    ),
    chat(
        u(
            'Act as a Portuguese tax advisor. Eu vou fazer-te perguntas como se fosse um cliente: "Olá, sou reformado, vivo no Algarve e tenho rendimentos de uma pensão inglesa."'
        ),
        u("continua no papel: e se o cliente tiver também uma casa arrendada em Faro?"),
        u(
            "ok, chega, obrigado. era para preparar uma apresentação no curso de contabilidade que estou a tirar",
            e("fact", "contabilidade"),
        ),
    ),
    chat(
        u("vc acha que vale a pena ver a série The Bear?"),
        u("eu amo série de comida, assisti Chef's Table inteira", e("preference", "comida")),
        u("mas drama muito pesado eu não curto, me deixa mal", e("preference", "drama")),
        u("vou dar uma chance entao"),
    ),
    chat(
        u("pode fazer uma lista de compras pra uma semana, 2 pessoas, tentando gastar pouco?"),
        u("sem carne de porco, meu marido é muçulmano", e("relationship", "marido")),
        u("e sem lactose pq eu sou intolerante", e("fact", "lactose")),
        u("perfeito"),
    ),
    group(
        ("Marta", "Tiago"),
        by("Marta", "vamos pedir ao chat para nos ajudar com a festa de anos da Leonor"),
        by(
            "Tiago",
            "ok. faz uma lista de atividades para uma festa de 6 anos com uns 15 miúdos num jardim",
        ),
        by(
            "Marta",
            "a Leonor é a nossa filha mais nova, adora dinossauros, mete isso no tema",
            e("relationship", "Marta", "Leonor", forbid=("usuario",)),
        ),
        by(
            "Tiago",
            "e eu trato dos jogos, já fiz de animador em campos de férias muitos anos",
            e("skill", "Tiago", "animador", forbid=("usuario",)),
        ),
        by("Marta", "boa. e um bolo fácil? eu não sei nada de pastelaria"),
    ),
    chat(
        u(
            'preciso transformar esse texto em algo mais profissional pra mandar pro cliente: "oi, então, atrasou pq o fornecedor não mandou as peças, mas até sexta chega"'
        ),
        u("menor"),
        u("perfeito, manda assim"),
    ),
    chat(
        u(
            "oi! me chamo Rafaela, tenho 34 e sou nutricionista, quero montar um ebook de receitas low carb pra vender pros meus pacientes",
            e("identity", "Rafaela"),
            e("identity", "34"),
            e("identity", "nutricionista"),
            e("project", "ebook"),
        ),
        u("pode me ajudar com o sumario primeiro?"),
        u("acho que precisa de uma parte de café da manha separado"),
        u("gostei, agora escreve a introdução em tom leve"),
        u("tá muito formal ainda, fala como se fosse com uma amiga"),
    ),
    chat(
        u(
            "tenho 41 anos e nunca andei de bicicleta, é tarde demais pra aprender? kkk",
            e("identity", "41"),
        ),
        u("onde em SP tem aula pra adulto?"),
        u("moro na zona leste, perto do Tatuapé", e("fact", "Tatuape")),
        u("vou ver o do parque do Carmo"),
    ),
    chat(
        u('Qual a diferença entre "há" e "à"? sempre me confundo'),
        u(
            'e "a" sem acento? o português é a minha segunda língua, em casa com os meus pais falo crioulo cabo-verdiano',
            e("skill", "crioulo"),
            e("identity", "cabo-verdian"),
        ),
        u("dá-me 5 frases de exemplo"),
    ),
    chat(
        u("meu notebook linux ta esquentando muito, como vejo o que ta consumindo cpu?"),
        u("é um thinkpad t14 com fedora", e("environment", "thinkpad"), e("environment", "fedora")),
        u("era o tracker-miner, matei e resolveu"),
    ),
    chat(
        u(
            "estou a aprender a tocar guitarra clássica há uns 6 meses, que peças fáceis recomendas?",
            e("skill", "guitarra"),
        ),
        u("já toco Lágrima do Tárrega mas com muitos erros"),
        u("e exercícios para o arpejo da mão direita?"),
        u("obrigado, vou praticar"),
    ),
    chat(
        u(
            'Preciso de responder a este email do meu senhorio:\n\n"Boa tarde, informo que a partir de março a renda passará para 850€, conforme o aumento legal. Cumprimentos, J. Mendes"\n\nEle pode aumentar assim?'
        ),
        u(
            "o contrato é de 2021 e nunca houve aumento até agora, é o T2 em Guimarães onde vivo com a minha irmã",
            e("fact", "Guimaraes"),
            e("relationship", "irma"),
        ),
        u("escreve uma resposta educada a pedir o cálculo"),
        u("mais curto, por favor"),
    ),
    chat(
        u("oq significa quando o cachorro fica lambendo a pata sem parar?"),
        u("não é meu, é da minha vizinha, ela me pediu pra perguntar kkk"),
        u("vou passar pra ela, vlw"),
    ),
    chat(
        u(
            "btw pode me responder sempre em tópicos curtos? textão no celular é horrível de ler",
            e("instruction", "topicos"),
        ),
        u("quais documentos preciso pra tirar passaporte?"),
        u(
            "e quanto custa hoje? vou fazer intercâmbio em Portugal em setembro por isso a pressa",
            e("goal", "intercambio"),
        ),
        u("demora quanto pra ficar pronto?"),
    ),
    chat(
        u(
            "sou brasileira mas moro no Porto desde 2019, tenho direito a votar nas autárquicas?",
            e("identity", "brasileir"),
            e("fact", "Porto"),
        ),
        u("tenho autorização de residência, ainda não pedi nacionalidade"),
        u("e como me recenseio?"),
        u("obrigada!!"),
    ),
    chat(
        u(
            "escreve um conto curto em primeira pessoa de um velho pescador da Nazaré que perdeu o barco numa tempestade"
        ),
        u("mais diálogo"),
        u("o final está muito feliz, quero algo mais ambíguo"),
        u("gosto mais desta versão"),
    ),
    group(
        ("Gabriel", "Camila"),
        by("Gabriel", "amor, pergunta aí pro gpt o que fazer em Buenos Aires em 4 dias"),
        by(
            "Camila",
            "roteiro de 4 dias em Buenos Aires pra um casal, gostamos de comer bem e de museu",
        ),
        by(
            "Gabriel",
            "e eu não bebo álcool, então sem tour de vinícola pfv",
            e("preference", "Gabriel", "alcool", forbid=("usuario",)),
        ),
        by(
            "Camila",
            "e eu falo espanhol fluente, pode colocar coisas fora do roteiro turistico",
            e("skill", "Camila", "espanhol", forbid=("usuario",)),
        ),
        by("Gabriel", "top, salva esse"),
    ),
    chat(
        u("qual a melhor maneira de aprender SQL do zero?"),
        u(
            "trabalho em RH e quero passar pra área de dados, people analytics",
            e("fact", "RH"),
            e("goal", "dados"),
        ),
        u("tem curso gratuito bom em portugues?"),
    ),
    chat(
        u("explica como funciona a lei da oferta e da procura com um exemplo do dia a dia"),
        u(
            "podes simplificar? é para o meu filho Tomás, tem 12 anos e tem teste na sexta",
            e("relationship", "Tomas"),
        ),
        u("perfeito"),
    ),
    chat(
        u(
            "antes eu usava o Notion pra tudo mas mudei pro Obsidian esse ano, como faço pra sincronizar entre o pc e o iphone sem pagar?",
            e("environment", "obsidian", forbid=("notion",)),
            e("environment", "iphone"),
        ),
        u("icloud funciona bem com windows?"),
        u("vou tentar o syncthing entao"),
    ),
    chat(
        u(
            'me ajuda a entender esse erro do docker: "Error response from daemon: driver failed programming external connectivity on endpoint web: Bind for 0.0.0.0:5432 failed: port is already allocated"'
        ),
        u("mas eu não tenho nada rodando na 5432"),
        u("ahh tinha um postgres instalado direto no mac, esqueci", e("environment", "mac")),
        u("mudei a porta no compose e foi"),
    ),
    chat(
        u(
            "Olá, tenho um blog de viagens de mota há 3 anos e quero começar a fazer vídeos, que câmara me aconselhas?",
            e("project", "blog"),
        ),
        u("até 400 euros"),
        u("a GoPro 11 usada parece-me bem"),
    ),
    chat(
        u(
            "quero parar de fumar, já tentei duas vezes. tem alguma estratégia que funcione de verdade?",
            e("goal", "fumar"),
        ),
        u("fumo uns 10 por dia, há uns 15 anos", e("fact", "fum")),
        u("o adesivo de nicotina precisa de receita?"),
        u("obg, vou conversar com meu médico"),
    ),
    chat(
        u(
            'Podes traduzir para francês: "Somos uma família de quatro, vivemos em Évora e temos um cão. Procuramos casa para trocar nas férias de agosto."'
        ),
        u(
            "é para um site de troca de casas, sim somos nós ahah, tenho dois filhos e um cão que se chama Pico",
            e("fact", "Evora"),
            e("relationship", "filhos"),
            e("relationship", "Pico"),
        ),
        u("e podes pôr mais simpático?"),
    ),
)
