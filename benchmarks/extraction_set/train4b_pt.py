# ruff: noqa: E501  (message texts are data: kept on one line each)
"""A new training batch of Portuguese conversations of the extraction evaluation set, ids
`pt-train4b-*`, split `dev`, used to train the extractor's learned stage: mostly European
Portuguese (Portugal, with some Angola and Mozambique) and some Brazilian, about life admin,
emigration, jobs, children, hobbies, tech and cooking, with pasted code, e-mails, texts to
translate or proofread, role-play prompts, hypotheticals, talk about other people and four group
conversations. It was written blind, without reading the extractor, its tests, the benchmark or
any other conversation of the set; only `turns.py`'s shape was used."""

from __future__ import annotations

from typing import Final

from turns import Conversation, by, chat, e, group, u

CONVERSATIONS: Final[tuple[Conversation, ...]] = (
    chat(
        u(
            "boa tarde, preciso de ajuda com o IRS deste ano. sou trabalhador independente desde março, passo recibos verdes como designer grafico e nao sei se tenho de entregar o anexo B ou o anexo C",
            e("identity", "design"),
            e("fact", "recibos verdes"),
        ),
        u(
            "ok e as despesas com o portátil contam? comprei um macbook em abril pra trabalhar",
            e("environment", "macbook"),
        ),
        u("percebi. consegues fazer-me uma lista dos prazos todos até ao fim do ano?"),
        u("obrigado, poe isso numa tabela pf"),
    ),
    chat(
        u(
            "tenho de escrever um email ao senhorio a dizer que a máquina de lavar avariou outra vez, tom educado mas firme. é a terceira vez este ano"
        ),
        u("está muito formal, quero algo mais curto"),
        u(
            "pode ser assim. ah e btw vivo em Almada desde o ano passado, se precisares de por a morada no fim é Rua do Moinho 12",
            e("fact", "Almada"),
        ),
        u("perfeito, obrigado"),
    ),
    chat(
        u(
            "ola! estou a pensar emigrar para a Suíça, tenho 31 anos e sou enfermeira no Hospital de Santa Maria ha 7 anos. o que preciso para reconhecer a cédula lá?",
            e("identity", "31"),
            e("identity", "enfermeir"),
            e("fact", "Santa Maria"),
            e("goal", "Suíça"),
        ),
        u(
            "e falo francês razoavelmente, tive 4 anos no secundario. chega ou tenho de ter certificado B2?",
            e("skill", "franc"),
        ),
        u(
            "e se eu fosse para a parte alemã? hipoteticamente, quanto tempo levava a aprender alemão até B1?"
        ),
        u("ok vou ficar pela Romandia entao. faz-me um plano de 6 meses"),
        u("mais curto, uma página no maximo"),
    ),
    chat(
        u(
            'traduz para inglês por favor: "Olá, chamo-me Marta e sou professora de matemática em Braga. Tenho dois filhos e um cão chamado Bolinhas. Procuro casa em Dublin a partir de setembro."'
        ),
        u("obrigada. agora uma versão mais informal pro whatsapp"),
        u("fixe. a minha amiga é que vai para Dublin, eu só estou a ajudar lol"),
    ),
    chat(
        u(
            "tenho este erro no python e nao percebo\n\nTraceback (most recent call last):\n  File \"app.py\", line 14, in <module>\n    df = pd.read_csv('vendas.csv', sep=';')\n  File \"/usr/lib/python3/dist-packages/pandas/io/parsers.py\", line 610, in read_csv\n    return _read(filepath_or_buffer, kwds)\nUnicodeDecodeError: 'utf-8' codec can't decode byte 0xe7 in position 23: invalid continuation byte"
        ),
        u(
            "ya era isso, encoding latin-1. agora quero que a coluna data fique como datetime e que a funçao devolva só as linhas de 2024"
        ),
        u(
            "funciona. já agora, uso sempre o vscode no ubuntu, se me deres atalhos que sejam desses",
            e("environment", "code"),
            e("environment", "ubuntu"),
        ),
        u("e como faço para agrupar por mes e somar o total?"),
        u("top"),
    ),
    chat(
        u(
            "oi, tudo bem? meu filho de 6 anos ta com febre de 38.5 desde ontem, dei paracetamol, quando devo levar ao pronto socorro?",
            e("relationship", "filho"),
        ),
        u("ele não tem outros sintomas, só ta mais cansado"),
        u("valeu, vou ficar de olho"),
    ),
    chat(
        u(
            "faz de conta que és um recrutador de uma empresa de software em Lisboa e eu vou a entrevista para backend java. faz-me perguntas uma de cada vez"
        ),
        u(
            "Olá, sou o Tiago, tenho 5 anos de experiência em Spring e trabalhei na Farfetch, gosto de desafios e de trabalhar em equipa"
        ),
        u(
            "acho que a diferença principal é que o @Transactional abre uma transação no proxy e se chamares o método dentro da mesma classe não passa pelo proxy"
        ),
        u("ok sai da personagem. como me saí? sê honesto"),
        u("obrigado. a entrevista real é na quinta, é para a Talkdesk"),
    ),
    chat(
        u("receita de bacalhau à brás para 4 pessoas? a minha sogra vem jantar"),
        u(
            "eu não como ovo por causa de uma alergia, há alguma forma de fazer sem? os outros comem normal",
            e("fact", "ovo"),
        ),
        u("ok faço duas versões entao. quanto tempo demora tudo?"),
        u("e para sobremesa algo fácil sem forno"),
    ),
    chat(
        u(
            "preciso de um texto para o anúncio de venda do meu carro: renault clio 2015, 120 mil km, gasóleo, revisões em dia, 7500 euros, zona de Coimbra"
        ),
        u("tira a parte do 'oportunidade única' que parece burla lol"),
        u("está bom assim"),
    ),
    chat(
        u(
            "a partir de agora responde-me sempre em português de Portugal, nada de brasileiro tipo 'você' e 'tela', ok?",
            e("instruction", "Portugal"),
        ),
        u("qual é a diferença entre 'há de' e 'hei de'?"),
        u("e 'haja' vs 'aja'?"),
        u("obrigado, explicaste bem"),
    ),
    chat(
        u(
            "hello, sou angolano, vivo em Luanda e trabalho como contabilista numa petrolífera. quero mudar-me para Portugal com a família no próximo ano. que visto devo pedir?",
            e("identity", "angolan"),
            e("fact", "Luanda"),
            e("identity", "contabilista"),
            e("goal", "Portugal"),
        ),
        u(
            "tenho esposa e duas filhas, de 8 e 12 anos",
            e("relationship", "esposa"),
            e("relationship", "filhas"),
        ),
        u("e as escolas públicas em Portugal aceitam alunos a meio do ano?"),
        u("e o visto de procura de trabalho, dura quanto?"),
    ),
    chat(
        u(
            'revê este texto, é para a candidatura ao mestrado: "Desde pequeno que me fascina a forma como as cidades crescem. Licenciei-me em Arquitetura na Universidade do Porto e trabalhei três anos num atelier em Guimarães. Quero agora aprofundar o urbanismo sustentável."'
        ),
        u("gostei mais da segunda versão, mas tira o 'apaixonado' que é cliché"),
        u(
            "sim, o texto é mesmo sobre mim, sou arquiteto e vou candidatar-me ao mestrado de urbanismo em Delft",
            e("identity", "arquitet"),
            e("goal", "urbanismo"),
        ),
        u("achas que devo mencionar o portfolio logo no primeiro parágrafo?"),
    ),
    chat(
        u("qual é melhor para uma criança de 10 anos aprender a programar, scratch ou python?"),
        u("e minecraft education serve?"),
        u("ok obrigado"),
    ),
    chat(
        u(
            "escreve uma função em javascript que recebe um array de objetos {nome, idade} e devolve só os maiores de idade ordenados por nome"
        ),
        u("quero que devolva só os nomes, não os objetos"),
        u("agora em typescript com tipos"),
        u(
            "isso, perfeito. eu programo há uns 3 anos mas sempre em js puro, ts ainda me baralha",
            e("skill", "3 anos"),
            e("goal", "typescript"),
        ),
    ),
    chat(
        u("sabes se os CTT entregam ao sábado?"),
        u("e como faço para mudar a morada de entrega de uma encomenda que já vem a caminho?"),
        u(
            "mudei-me de Setúbal para Évora a semana passada e ainda tenho coisas a chegar à casa antiga",
            e("fact", "Évora", forbid=("Setubal",)),
        ),
        u("ok vou ligar para lá amanhã"),
    ),
    group(
        ("Inês", "Duarte"),
        by("Inês", "ok vamos planear a viagem aos Açores, eu só tenho férias de 10 a 20 de agosto"),
        by(
            "Duarte",
            "eu consigo essas datas. lembrem-se que eu enjoo imenso em barcos, nada de passeios de baleias para mim",
            e("preference", "Duarte", "barco", forbid=("usuario",)),
        ),
        by(
            "Inês",
            "que pena, eu adoro ver baleias. mas ok, fazemos São Miguel e Terceira?",
            e("preference", "Inês", "baleia", forbid=("usuario",)),
        ),
        by(
            "Duarte",
            "pode ser. assistente, faz um roteiro de 10 dias para essas duas ilhas sem barcos",
        ),
    ),
    chat(
        u(
            "como se faz para trocar a carta de condução brasileira pela portuguesa? moro em Braga faz 8 meses",
            e("fact", "Braga"),
        ),
        u("tenho que fazer exame ou é direto?"),
        u("vlw, vou marcar no IMT"),
    ),
    chat(
        u(
            "resume-me este email em 3 pontos:\n\nCaros colegas,\nInformo que a partir de 1 de junho o horário de atendimento passa a ser das 9h às 17h. As reuniões de equipa passam para terça-feira às 10h. Peço a todos que atualizem os calendários. Quem tiver férias marcadas para junho deve confirmar com a Dra. Luísa até dia 20.\nCumprimentos,\nJoão Mendes\nDiretor de Recursos Humanos"
        ),
        u("e escreve uma resposta curta a confirmar que tenho férias de 12 a 23 de junho"),
        u("obrigado"),
    ),
    chat(
        u(
            "tou a fazer um bolo de bolacha pro aniversário do meu marido, quantas bolachas maria preciso para uma forma de 24cm?",
            e("relationship", "marido"),
        ),
        u("e posso substituir o café por outra coisa? ele não gosta de café"),
        u("ok uso chocolate. obg!"),
    ),
    chat(
        u(
            "preciso de um cover letter em inglês para esta vaga:\n\nJunior Data Analyst - Remote (EU)\nRequirements: SQL, Python, Power BI, 1+ years experience, fluent English.\nNice to have: Portuguese or Spanish.\n\nterminei o curso de estatística na Nova em julho e fiz estágio de 6 meses na Sonae",
            e("fact", "estat"),
            e("fact", "Sonae"),
        ),
        u("põe mais ênfase no power bi que é o que sei melhor", e("skill", "power bi")),
        u("e tira o 'passionate', odeio essa palavra nas cartas"),
        u("está ótimo agora"),
    ),
    chat(
        u("se eu ganhasse o euromilhões, achas que era melhor investir em imobiliário ou em ETFs?"),
        u("é só curiosidade, não jogo lol"),
        u("e o que são ETFs de acumulação?"),
    ),
    chat(
        u(
            "bom dia. sou de Maputo, estou a fazer doutoramento em Coimbra em engenharia civil e preciso de ajuda com o inglês do meu artigo",
            e("identity", "Maputo"),
            e("fact", "doutoramento"),
            e("fact", "Coimbra"),
        ),
        u(
            'aqui vai o abstract: "This paper present a new method for evaluate the durability of concrete in marine environments. The results shows that the addition of fly ash reduce the chloride penetration in 30%."'
        ),
        u("obrigado. podes explicar os erros para eu aprender?"),
        u(
            "e daqui para a frente quando eu mandar texto em inglês corrige e explica sempre os erros em lista",
            e("instruction", "erros"),
        ),
    ),
    chat(
        u("qual a diferença entre o ssd nvme e sata? quero fazer upgrade ao meu portátil"),
        u(
            "é um lenovo thinkpad t480 com linux mint",
            e("environment", "thinkpad"),
            e("environment", "mint"),
        ),
        u("e quanto é que ganho em velocidade no arranque na pratica?"),
        u("beleza, vou comprar um de 1tb"),
    ),
    chat(
        u(
            "como é que eu digo ao meu chefe que quero reduzir para 4 dias por semana sem parecer que estou desmotivado?"
        ),
        u(
            "a razão real é que quero ter mais tempo para a minha filha, ela tem 2 anos e está na creche até às 18h",
            e("relationship", "filha"),
        ),
        u("escreve-me um guião curto para a conversa"),
        u("mais natural, eu não falo assim tão formal"),
    ),
    chat(
        u(
            "gosto muito de fazer pão em casa, já tenho massa mãe há 2 anos. porque é que o meu pão fica tão denso ultimamente?",
            e("preference", "pão"),
            e("skill", "massa m"),
        ),
        u("uso farinha t65 e hidratação de 70%"),
        u("a cozinha deve estar a uns 18 graus agora no inverno"),
        u("ok vou experimentar fermentar no forno com a luz ligada"),
    ),
    chat(
        u(
            "corrige a pontuação: 'ontem fui ao mercado e comprei peixe fruta e legumes depois fui para casa e cozinhei para os meus pais que vieram de Viseu'"
        ),
        u("obrigado"),
    ),
    chat(
        u(
            "quero montar um servidor em casa para fotos da família, tipo google photos mas meu. tenho um raspberry pi 4 parado",
            e("environment", "raspberry"),
        ),
        u("immich ou photoprism? qual gasta menos?"),
        u("ok, dá-me o docker-compose do immich"),
        u(
            "deu este erro: 'Error response from daemon: driver failed programming external connectivity on endpoint immich_server: Bind for 0.0.0.0:2283 failed: port is already allocated'"
        ),
        u("era outro container antigo, já está. obrigado!!"),
    ),
    chat(
        u(
            "oi! sou professora do fundamental em Curitiba e quero ideias de atividades sobre o ciclo da água pro 4º ano",
            e("identity", "professor"),
            e("fact", "Curitiba"),
        ),
        u("algo que dê pra fazer em sala sem muito material"),
        u("amei a do saquinho na janela, vou fazer essa"),
    ),
    chat(
        u(
            "imagina que és o meu personal trainer. eu: 'tenho 45 anos, peso 90 kg e quero perder 10 kg até ao verão'. responde como ele responderia"
        ),
        u("agora o mesmo mas como se fosses muito duro tipo sargento lol"),
        u("haha ok. por acaso isto é para um sketch de teatro da escola do meu sobrinho"),
    ),
    chat(
        u(
            "qual é o melhor editor de texto para escrever um romance? uso o word mas irrita-me",
            e("project", "romance"),
            e("preference", "word"),
        ),
        u(
            "o scrivener funciona em linux? mudei do windows para o fedora há pouco tempo",
            e("environment", "fedora", forbid=("windows",)),
        ),
        u("e há alternativas open source?"),
        u("vou experimentar o manuskript então"),
    ),
    group(
        ("Carla", "Nuno", "Sofia"),
        by(
            "Carla",
            "malta, temos de decidir o jantar de natal da empresa. eu sou vegetariana por isso preciso de um sitio com opções",
            e("fact", "Carla", "vegetarian", forbid=("usuario",)),
        ),
        by("Nuno", "eu sugiro o Zé da Mouraria, mas é verdade que lá só há carne"),
        by(
            "Sofia",
            "e eu sou celíaca, glúten nem pensar. assistente, sugere 3 restaurantes em Lisboa que sirvam as duas coisas",
            e("fact", "Sofia", "celiac", forbid=("usuario",)),
        ),
        by("Nuno", "de preferência perto do Saldanha, que é onde fica o escritório"),
    ),
    chat(
        u(
            "explica-me o que é o NIF e o NISS, acabei de chegar a Portugal vindo de São Paulo e estou perdido",
            e("fact", "Portugal"),
            e("identity", "Paulo"),
        ),
        u("preciso de representante fiscal se já tenho morada aqui?"),
        u("e a conta no banco, qual é mais fácil para estrangeiro?"),
        u("valeu demais"),
    ),
    chat(
        u(
            "estou a tentar fazer esta regex funcionar para códigos postais portugueses mas falha: ^\\d{4}\\d{3}$"
        ),
        u("ah falta o hífen. e se quiser aceitar com ou sem hífen?"),
        u("funciona, obrigado"),
    ),
    chat(
        u(
            "lembra-te que sou daltónico, quando me sugerires cores para gráficos evita vermelho/verde",
            e("fact", "dalt"),
            e("instruction", "verde"),
        ),
        u("preciso de uma paleta para um dashboard com 5 categorias"),
        u("e em hex?"),
    ),
    chat(
        u(
            "como é que se faz arroz de pato à moda de braga? a minha avó fazia mas nunca escrevi a receita"
        ),
        u("ela punha chouriço e salpicão, isso é normal?"),
        u("e o pato cozo antes ou assa-se diretamente?"),
        u("obrigada, vou tentar no domingo"),
    ),
    chat(
        u(
            "trabalho como motorista de pesados há 15 anos e quero tirar a carta de instrutor de condução. quais os requisitos?",
            e("identity", "motorista"),
            e("skill", "15 anos"),
            e("goal", "instrutor"),
        ),
        u("tenho o 12º ano, chega?", e("fact", "12")),
        u("e quanto custa mais ou menos o curso?"),
    ),
    chat(
        u("preciso de uma desculpa criativa para faltar ao jantar de família no sábado lol"),
        u("nah, vou ser honesto. ajuda-me a escrever uma mensagem simpática a dizer que não posso"),
        u("curto, é para o grupo do whatsapp"),
    ),
    chat(
        u(
            "tenho um golden retriever de 3 anos, o Simba, e ele anda a coçar muito as orelhas. pode ser otite?",
            e("relationship", "Simba"),
        ),
        u("ele toma banho no mar quase todos os fins de semana"),
        u("ok vou marcar veterinário. obrigado"),
    ),
    chat(
        u(
            "escreve um post para o linkedin a anunciar que vou sair da empresa, quero agradecer à equipa"
        ),
        u(
            "fiquei 6 anos na NOS e agora vou para a Vodafone como product manager",
            e("fact", "Vodafone"),
            e("identity", "product manager"),
        ),
        u("mais curto e menos lamechas"),
        u("perfeito, publica-se assim"),
    ),
    chat(
        u(
            'o meu código em c dá segmentation fault e não percebo porque:\n\n#include <stdio.h>\n#include <string.h>\n\nint main() {\n    char *nome;\n    strcpy(nome, "Joana");\n    printf("%s\\n", nome);\n    return 0;\n}'
        ),
        u("ah tenho de alocar memória. com malloc ou array fixo?"),
        u(
            "é para um trabalho da cadeira de programação, estou no primeiro ano de engenharia informática no Técnico",
            e("fact", "informática"),
            e("fact", "Técnico"),
        ),
        u("obrigada, agora compila e corre"),
    ),
    chat(
        u("quais são os documentos para renovar o cartão de cidadão de uma criança?"),
        u(
            "ela tem 5 anos, é a minha enteada, preciso da autorização do pai biológico?",
            e("relationship", "enteada"),
        ),
        u("ok vou ligar para a loja do cidadão"),
    ),
    chat(
        u(
            "tu és um chef michelin a avaliar o meu prato: 'frango grelhado com arroz branco e salada de alface'. sê brutal"
        ),
        u("hahaha ok agora dá-me dicas reais para melhorar"),
        u("não tenho tempo para marinadas longas, chego a casa às 20h todos os dias"),
    ),
    chat(
        u(
            "nao sei se devo aceitar uma proposta em Amesterdão. ganho 1400 aqui em Lisboa como dev frontend e eles oferecem 4200 brutos",
            e("identity", "frontend"),
            e("fact", "Lisboa"),
        ),
        u("o custo de vida lá compensa? renda de um t1 ronda quanto?"),
        u(
            "a minha namorada também teria de arranjar trabalho lá, ela é fisioterapeuta",
            e("relationship", "namorada"),
        ),
        u("faz-me uma tabela com prós e contras"),
        u("obrigado, vou pensar com calma"),
    ),
    chat(
        u("olá, podes converter 350 graus fahrenheit para celsius?"),
        u("e 2 cups de farinha em gramas?"),
        u(
            "daqui em diante usa sempre gramas e celsius nas receitas, não sei nada de cups",
            e("instruction", "gram"),
        ),
        u("agora dá-me uma receita de cookies"),
    ),
    chat(
        u("escreve um haiku sobre a chuva em Lisboa"),
        u("agora um sobre o Tejo"),
        u("lindo"),
    ),
    group(
        ("Joana", "Miguel"),
        by(
            "Joana",
            "assistente, estamos a decidir o nome do nosso bebé, nasce em março. eu gosto de nomes curtos",
            e("preference", "Joana", "curto", forbid=("usuario",)),
        ),
        by(
            "Miguel",
            "eu queria um nome que funcione em francês também, os meus pais vivem em Lyon",
            e("relationship", "Miguel", "pais", forbid=("usuario",)),
        ),
        by("Joana", "dá-nos 10 sugestões de rapariga"),
        by("Miguel", "gosto da Lia e da Clara"),
        by("Joana", "Clara também me agrada. e rapaz?"),
    ),
    chat(
        u(
            "bom dia, preciso de reclamar no livro de reclamações eletrónico da EDP, cobraram-me duas vezes a fatura de outubro"
        ),
        u("escreve tu o texto, com o nº de cliente 4455123"),
        u("ok. e quanto tempo eles têm para responder?"),
    ),
    chat(
        u(
            "toco guitarra clássica desde os 12 anos e agora quero aprender a tocar fado na guitarra portuguesa. por onde começo?",
            e("skill", "guitarra cl"),
            e("goal", "guitarra portuguesa"),
        ),
        u("há diferença na afinação?"),
        u("e vale a pena ter aulas ou dá para aprender com vídeos?"),
        u("ok, vou procurar professor em Coimbra"),
    ),
    chat(
        u("como faço um gráfico de barras empilhadas no excel?"),
        u("não tenho a opção que disseste, o meu excel está em inglês"),
        u("ok encontrei, Insert > Charts. obrigado"),
    ),
    chat(
        u(
            "sou cabo-verdiana mas cresci na Amadora. quero tirar a nacionalidade portuguesa, tenho direito?",
            e("identity", "cabo-verd"),
            e("fact", "Amadora"),
        ),
        u("vivo cá desde os 4 anos, agora tenho 26", e("identity", "26")),
        u("e o teste de português, tenho de fazer mesmo tendo estudado cá?"),
        u("obrigada, ajudaste muito"),
    ),
    chat(
        u(
            "eu não gosto nada de séries longas, prefiro minisséries. recomenda-me 5 boas dos últimos anos",
            e("preference", "minis"),
        ),
        u("já vi chernobyl e o gambito de dama"),
        u("adolescence parece bom, vou ver essa"),
    ),
    chat(
        u(
            "tenho este sql e está lentíssimo:\n\nSELECT c.nome, SUM(e.valor)\nFROM clientes c\nJOIN encomendas e ON e.cliente_id = c.id\nWHERE YEAR(e.data) = 2024\nGROUP BY c.nome\nORDER BY 2 DESC;\n\na tabela encomendas tem 8 milhões de linhas"
        ),
        u("é mysql 8"),
        u("quero que use o índice na data, como reescrevo?"),
        u("passou de 40s para 2s, brutal"),
    ),
    chat(
        u(
            "vou fazer o caminho de santiago a pé desde o Porto em maio. que mochila levo?",
            e("goal", "santiago"),
        ),
        u("nunca fiz caminhadas longas, só corro 10km ao fim de semana", e("preference", "corr")),
        u("quantos km por dia é razoável para um iniciante?"),
        u("faz-me a lista do que levar"),
    ),
    chat(
        u(
            "hey, trabalho remoto pra uma empresa americana e to pensando em me mudar do Rio de Janeiro pra Lisboa com o visto de nômade digital. qual o rendimento mínimo?",
            e("fact", "Janeiro"),
            e("goal", "Lisboa"),
        ),
        u("ganho uns 5 mil dólares por mês, dá?"),
        u("e imposto, pago aqui ou lá?"),
        u("show, obrigado"),
    ),
    chat(
        u(
            "reescreve isto para soar mais profissional: 'oi pessoal, a reunião de amanhã foi cancelada pq o cliente não pode, depois marco outra'"
        ),
        u("ainda mais curto"),
        u("ok"),
    ),
    chat(
        u(
            "o meu filho mais velho tem 16 anos e quer ir para um curso profissional de mecatrónica em vez do científico-humanístico. é boa ideia?",
            e("relationship", "filho"),
        ),
        u("ele sempre foi bom com as mãos, desmonta tudo lá em casa"),
        u("e depois pode entrar na universidade na mesma?"),
        u("obrigado, vou falar com ele hoje"),
    ),
    chat(
        u(
            "passei a usar o neovim no lugar do vscode, como configuro o lsp para python?",
            e("environment", "neovim", forbid=("vscode",)),
        ),
        u("uso o lazy.nvim como gestor de plugins", e("environment", "lazy")),
        u("deu 'pyright not found', tenho de instalar com o mason?"),
        u("já está, obrigado!"),
    ),
    chat(
        u("qual a capital da Mongólia?"),
        u("e como se diz obrigado em mongol?"),
    ),
    group(
        ("Rita", "Pedro"),
        by(
            "Rita",
            "ok assistente, somos dois colegas de casa a dividir despesas. eu trabalho por turnos no hospital por isso quase nunca janto em casa",
            e("fact", "Rita", "hospital", forbid=("usuario",)),
        ),
        by(
            "Pedro",
            "e eu trabalho a partir de casa, por isso gasto mais luz, é justo pagar mais",
            e("fact", "Pedro", "casa", forbid=("usuario",)),
        ),
        by("Rita", "faz-nos uma divisão justa de 120 euros de luz, 40 de água e 35 de internet"),
        by(
            "Pedro",
            "parece-me bem. ah e eu só me mudei de Aveiro para Lisboa em janeiro, por isso os meses de antes não contam",
            e("fact", "Pedro", "Lisboa", forbid=("usuario", "Aveiro")),
        ),
    ),
    chat(
        u(
            "prefiro respostas curtas, sem introduções nem resumos no fim. ok?",
            e("instruction", "curt"),
        ),
        u("como se desliga a atualização automática do windows 11?"),
        u("e só adiar por 5 semanas?"),
    ),
    chat(
        u(
            "sou de Benguela e estou a estudar medicina em Lisboa, ando muito stressado com os exames. tens técnicas de estudo?",
            e("identity", "Benguela"),
            e("fact", "medicina"),
        ),
        u("tenho tendência a procrastinar no telemóvel"),
        u("o pomodoro já tentei, não resulta comigo"),
        u("vou experimentar o active recall com o anki"),
    ),
    chat(
        u(
            "preciso de ajuda para escolher um telemóvel novo até 400 euros. o meu atual é um samsung a52 que já está a morrer",
            e("environment", "samsung"),
        ),
        u("tiro muitas fotos à noite, é o que mais me importa", e("preference", "fot")),
        u("e o pixel 8a? vale a pena?"),
        u("vou esperar pela black friday então"),
    ),
    chat(
        u(
            "olá, sou nutricionista e estou a preparar uma palestra para pais sobre lancheiras saudáveis. dá-me 10 ideias de lanches",
            e("identity", "nutricionista"),
        ),
        u("sem frutos secos, muitas escolas proíbem"),
        u("e um título apelativo para a palestra?"),
        u("gosto do segundo"),
    ),
    chat(
        u(
            "ando a aprender coreano há um ano sozinho, já leio hangul mas travo na gramática. que livro recomendas?",
            e("goal", "coreano"),
            e("skill", "hangul"),
        ),
        u(
            "prefiro livros a apps, fico cansado de ecrãs depois do trabalho",
            e("preference", "livro"),
        ),
        u("o talk to me in korean tem versão em papel?"),
    ),
    chat(
        u(
            "faz-me um email para a escola da minha filha a justificar a falta de ontem, ela esteve com gastroenterite",
            e("relationship", "filha"),
        ),
        u("o nome dela é Beatriz Costa, 3º B", e("relationship", "Beatriz")),
        u("obrigada"),
    ),
    chat(
        u(
            "sou vegano há 4 anos e quero receitas ricas em proteína para o ginásio, treino 5 vezes por semana",
            e("fact", "vegan"),
            e("preference", "ginás"),
        ),
        u("sem soja se possível, faz-me inchar", e("preference", "soja")),
        u("faz um plano de refeições para 3 dias"),
        u("e a lista de compras"),
    ),
    chat(
        u(
            "estou a escrever um livro infantil sobre um polvo que tem medo do escuro, já tenho 4 capítulos. ajuda-me a dar nome ao polvo",
            e("project", "polvo"),
        ),
        u("gosto de nomes que rimem com alguma coisa"),
        u("Otávio o Polvo Medroso, ahah boa"),
    ),
    chat(
        u(
            "o meu portátil com windows 10 está lento. vale a pena instalar o linux? nunca usei",
            e("environment", "windows"),
        ),
        u(
            "uso o pc só para o email e para ver netflix, e o meu neto às vezes joga",
            e("relationship", "neto"),
        ),
        u("ok, explica-me como fazer uma pen de instalação do mint passo a passo, devagarinho"),
        u("e se correr mal, perco as fotos?"),
    ),
)
