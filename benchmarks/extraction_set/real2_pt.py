# ruff: noqa: E501  (message texts are data: kept on one line each)
"""Realistic Portuguese dev conversations of the extraction evaluation set, second batch
(see README.md in this folder).

Ids `pt-real2-*`, split `dev`: these WILL be used to tune the rules.

Written blind, as one population with its twin file (`blind2_pt.py`), dealt alternately
between the two (the 1st conversation here, the 2nd there, ...) so that both halves have the same
mix: written from knowledge of how people talk to chat assistants, without reading the
extractor's rules, its confidence model, its tests or documentation, or any other dev or
held-out conversation of this set, and committed before the extractor was ever run on it.
Real-export shapes: lower case, typos, informal spelling (vc, pq, né, pra, tb), with and
without accents, English words mixed in; requests and first-person statements about the task
at hand, pasted code, tracebacks, e-mails, job posts and essays, text to translate, rewrite or
proofread, role-play, hypotheticals, what people say about others, chit-chat, three group
conversations with named speakers, beside genuine self-disclosure in varied wording.

The shape of a conversation is `turns.py`'s.
"""

from __future__ import annotations

from typing import Final

from turns import Conversation, by, chat, e, group, u

CONVERSATIONS: Final[tuple[Conversation, ...]] = (
    # BR
    chat(
        u(
            "oi, tenho esse dataframe e preciso agrupar por mes e somar a coluna de vendas\n\nimport pandas as pd\ndf = pd.read_csv('vendas_2024.csv', sep=';')\ndf['data'] = pd.to_datetime(df['data'])\nmensal = df.groupby(df['data'].dt.month)['valor'].sum()\nprint(mensal)"
        ),
        u(
            "deu isso aqui\n\nTraceback (most recent call last):\n  File \"C:\\Users\\rafa\\relatorio.py\", line 3, in <module>\n    df['data'] = pd.to_datetime(df['data'])\n  File \"C:\\Python311\\Lib\\site-packages\\pandas\\core\\frame.py\", line 3761, in __getitem__\n    indexer = self.columns.get_loc(key)\nKeyError: 'data'"
        ),
        u("ahh a coluna chama 'Data' com D maiusculo kkkk. funcionou, valeu"),
        u(
            "btw sou analista de BI numa rede de farmácias aqui em curitiba, entao vou usar muito isso, se puder sempre me mostra a versao com pandas e a versao em SQL",
            e("identity", "analista"),
            e("fact", "curitiba"),
            e("instruction", "sql"),
        ),
    ),
    # PT
    chat(
        u(
            'podes melhorar este email? é para o meu chefe\n\n"Olá Rui, queria informar que amanhã não vou poder estar na reunião das 10h porque tenho consulta no hospital de santa maria. Sou responsável pelo relatório do 3º trimestre e envio-o até sexta. Cumprimentos, Marta"'
        ),
        u("está demasiado formal, o Rui é porreiro, quero uma coisa mais descontraída"),
        u(
            "assim está ótimo. já agora trata-me por tu, não gosto nada daquele 'você' que usas",
            e("instruction", "por tu"),
        ),
    ),
    # BR
    chat(
        u(
            "corrige essa redação pra mim, é modelo enem, tema 'desafios para a valorização de comunidades e povos tradicionais no brasil'\n\nNo Brasil, os povos tradicionais sofrem com a invisibilidade. Eu acredito que isso ocorre pela falta de políticas públicas e tambem pela mídia que não mostra essas comunidades. Segundo o filósofo Jonh Locke, o estado deve garantir os direitos naturais. Porém isso não acontece, pois os indígenas e quilombolas continuam tendo seus territórios invadidos..."
        ),
        u("qual nota vc acha que tiraria?"),
        u(
            "ainda to longe do 900 ne. tenho 17 anos e quero muito passar em medicina na federal daqui, é meu sonho desde criança",
            e("identity", "17"),
            e("goal", "medicina"),
        ),
        u("o que eu melhoro primeiro, a proposta de intervenção?"),
        u("ok vou reescrever e te mando amanha"),
    ),
    # PT
    chat(
        u(
            'traduz isto para inglês pf: "Vivo em Coimbra há dez anos e trabalho como guia turístico. Adoro mostrar a cidade aos visitantes, sobretudo a Biblioteca Joanina."'
        ),
        u("obrigado! não é para mim, é para o perfil do meu tio no airbnb experiences"),
        u("e agora em francês, ele recebe muitos franceses"),
    ),
    # BR
    group(
        ("Ana", "Bruno", "Carol"),
        by(
            "Ana",
            "gente bora fechar o role de floripa? vou pedir pro assistente montar um roteiro de 3 dias",
        ),
        by(
            "Bruno",
            "bora. eu moro em campinas, posso sair de carro e pegar vcs em sampa na sexta",
            e("fact", "Bruno", "campinas", forbid=("usuario",)),
        ),
        by(
            "Ana",
            "so lembrando q eu sou vegana ta, nada de rodizio de churrasco dessa vez kkkk",
            e("fact", "Ana", "vegan", forbid=("usuario",)),
        ),
        by(
            "Carol",
            "sugere umas praias mais tranquilas tb, odeio praia lotada",
            e("preference", "Carol", "lotad", forbid=("usuario",)),
        ),
        by("Bruno", "e um lugar pra ver o por do sol no sabado"),
    ),
    # BR
    chat(
        u(
            "oi! tenho 29 anos, sou enfermeira faz 6 anos e to pensando seriamente em migrar pra area de dados",
            e("identity", "29"),
            e("identity", "enfermeir"),
            e("goal", "dados"),
        ),
        u("monta um plano de estudos de 6 meses pra mim? consigo estudar umas 10h por semana"),
        u(
            "prefiro curso em video, livro tecnico eu durmo na segunda pagina kkk",
            e("preference", "video"),
        ),
        u("sql ou python primeiro?"),
        u("blz, vou comecar pelo sql entao"),
    ),
    # PT
    chat(
        u("é 'há de haver' ou 'à de haver'? e 'há' ou 'à' em 'daqui a dois dias'?"),
        u(
            "a minha filha está no 5º ano e pediu-me ajuda com os trabalhos de casa e eu já não me lembro de nada disto lol",
            e("relationship", "filha"),
        ),
        u("dá-me mais 5 exercícios para ela praticar, com as soluções no fim"),
    ),
    # BR
    chat(
        u(
            "toco violao ha uns 10 anos mas sempre de ouvido, nunca estudei teoria",
            e("skill", "violao"),
        ),
        u("me explica campo harmonico de do maior de um jeito simples"),
        u("e pq o sétimo grau é meio diminuto?"),
        u(
            "massa. quero aprender a ler partitura esse ano, tem algum app bom?",
            e("goal", "partitura"),
        ),
    ),
    # PT
    chat(
        u(
            "a partir de agora responde sempre em português de portugal, nada de 'você' nem 'celular' pf",
            e("instruction", "portugal"),
        ),
        u("qual é a diferença entre um PPR e um fundo de investimento normal?"),
        u(
            "e em termos de irs, compensa? sou trabalhador independente, passo recibos verdes",
            e("fact", "recibos verdes"),
        ),
    ),
    # BR
    chat(
        u(
            "escreve um poema curto de aniversario de namoro pra minha namorada, ela chama Júlia e ama girassol",
            e("relationship", "julia"),
        ),
        u("ta muito meloso, tira umas rimas"),
        u("coloca que a gente se conheceu no show do djavan em 2019"),
        u("perfeito, ela vai chorar"),
    ),
    # PT
    chat(
        u(
            'reescreve este post para o linkedin, está muito seco:\n\n"Novo capítulo. A partir de hoje faço parte da equipa de dados da Farfetch. Obrigado a todos os que me ajudaram."'
        ),
        u(
            "sim, é mesmo meu, comecei na farfetch segunda-feira como data engineer",
            e("fact", "farfetch"),
            e("identity", "data engineer"),
        ),
        u("menos emojis, por favor, só um no máximo"),
    ),
    # BR
    chat(
        u(
            "me ajuda a escrever a bio do instagram da minha loja de bolos caseiros? to montando ela faz uns 3 meses, chama Doce da Lu",
            e("project", "doce da lu"),
        ),
        u("quero algo fofo mas que nao pareca infantil"),
        u("a segunda opção ta otima"),
        u("agora 5 ideias de post pra semana da pascoa"),
    ),
    # PT
    chat(
        u(
            'corrige-me este texto, é para uma candidatura a uma bolsa:\n\n"Eu nasci em Luanda em 1998 e vim para Portugal com sete anos. Desde pequena que sonho ser investigadora na área da biologia marinha, e o mar sempre foi a minha casa."'
        ),
        u("está bom o tom? não quero parecer dramática"),
        u("e podes cortar para 80 palavras?"),
    ),
    # BR
    chat(
        u(
            "quero ganhar massa muscular, to com 1,75 e 68kg, treino faz uns 2 meses so",
            e("goal", "massa"),
        ),
        u(
            "monta uma dieta de 2800 kcal? detalhe: não como carne vermelha, so frango e peixe",
            e("fact", "carne vermelha"),
        ),
        u("e o que comer antes do treino? treino as 6 da manha"),
        u("whey vale a pena ou é marketing?"),
    ),
    # PT
    chat(
        u(
            "mudei-me de lisboa para o porto no mês passado, como é que altero a morada no cartão de cidadão? dá para fazer online?",
            e("fact", "porto", forbid=("lisboa",)),
        ),
        u("e preciso de ir às finanças também ou atualiza sozinho?"),
        u("ok. e onde é a loja do cidadão mais perto da boavista?"),
    ),
    # BR
    chat(
        u("qual a diferença entre apêndice e anexo no tcc? a abnt me confunde"),
        u(
            "meu tcc é sobre evasão escolar no ensino medio, faço pedagogia na UFPE, ultimo periodo graças a deus",
            e("fact", "pedagogia"),
        ),
        u("e as citações diretas longas, é recuo de 4cm né?"),
    ),
    # PT
    chat(
        u("qual é a melhor forma de ir de faro a sevilha sem carro?"),
        u("e quanto tempo demora o autocarro?"),
        u(
            "perfeito. já agora, não conduzo, nunca tirei a carta, por isso não me sugiras rent-a-car",
            e("fact", "conduz"),
        ),
    ),
    # BR
    chat(
        u("quanto tempo leva pra tirar passaporte em sp? tenho viagem marcada pra lisboa em março"),
        u("vou visitar minha irmã que mora la faz 3 anos", e("relationship", "irm")),
        u(
            "e precisa de visto pra ficar 20 dias? sou brasileira e nao tenho dupla cidadania",
            e("identity", "brasileir"),
        ),
        u("blz, valeu"),
    ),
    # PT
    chat(
        u(
            "escreve uma mensagem de despedida para a colega que se vai reformar, a D. Fernanda, trabalhou connosco 30 anos"
        ),
        u("mais curta e menos lamechas"),
        u(
            "assina em nome da equipa de contabilidade da câmara de oeiras, onde trabalho",
            e("fact", "oeiras"),
        ),
    ),
    # BR
    group(
        ("Larissa", "Diego"),
        by(
            "Larissa",
            "amor pede pro bot uma lista de nomes de cachorro, a gente vai adotar semana que vem",
        ),
        by("Diego", "nomes curtos, tipo 2 silabas. e nada de nome de gente"),
        by("Larissa", "eu amo nome de comida tipo Paçoca, Feijão kkkk"),
        by(
            "Diego",
            "eu sou alérgico a pelo de gato entao graças a deus é cachorro mesmo",
            e("fact", "Diego", "gato", forbid=("usuario",)),
        ),
        by("Larissa", "fechado, Paçoca!!"),
    ),
    # BR
    chat(
        u("qual melhor notebook ate 5 mil pra programar?"),
        u(
            "hj eu uso um macbook air m1 do trabalho mas quero um meu, pessoal",
            e("environment", "macbook"),
        ),
        u(
            "tem que rodar linux de boa, no pc de casa eu ja uso fedora faz anos",
            e("environment", "fedora"),
        ),
        u("e o thinkpad e14 vale?"),
    ),
    # PT
    chat(
        u("como se diz 'estou a fazer o jantar' em espanhol? e 'estou farto disto'?"),
        u(
            "estou a aprender espanhol porque em setembro vou fazer erasmus em valência",
            e("goal", "espanhol"),
            e("goal", "erasmus"),
        ),
        u("dá-me 10 expressões que se usam mesmo na rua"),
    ),
    # BR
    chat(
        u(
            "oi, eu sou o caio, tenho 41 anos e sou motorista de aplicativo aqui em bh",
            e("identity", "caio"),
            e("identity", "41"),
            e("identity", "motorista"),
            e("fact", "bh"),
        ),
        u(
            "queria entender se vale a pena trocar meu onix por um carro eletrico, rodo uns 250km por dia"
        ),
        u("e o custo de recarga em casa? moro em apartamento, sera que o condominio deixa?"),
        u("faz uma tabela comparando com gasolina e gnv"),
    ),
    # PT
    chat(
        u(
            "faz de conta que és um sommelier num restaurante em lisboa e eu sou um turista americano que não percebe nada de vinho"
        ),
        u(
            "Hi! I'd like something red, not too heavy, to go with the bacalhau. I'm from Texas, we mostly drink beer back home haha"
        ),
        u("What about a white from the Douro?"),
        u(
            "ok sai da personagem. que vinhos do douro brancos recomendas até 15 euros a sério? eu prefiro brancos, os tintos dão-me dores de cabeça",
            e("preference", "branc"),
        ),
    ),
    # BR
    chat(
        u("gera um regex que valide cpf no formato 000.000.000-00"),
        u(
            "to tentando fazer esse regex funcionar no javascript e nao bate: /^\\d{3}\\.\\d{3}\\.\\d{3}-\\d{2}$/.test(' 123.456.789-09')"
        ),
        u("era o espaço na frente mds"),
        u("e pra validar os digitos verificadores? escreve a funcao em typescript"),
        u(
            "sempre que eu pedir codigo me manda em typescript, nunca em js puro",
            e("instruction", "typescript"),
        ),
    ),
    # PT
    chat(
        u(
            "qual é a diferença entre 'ir ter com' e 'encontrar-se com'? um amigo brasileiro não percebe"
        ),
        u("e 'fixe'? ele acha que é 'fixo'"),
        u(
            "lol ok, e 'bué'? ele veio para cá em fevereiro e partilhamos casa aqui em alvalade",
            e("fact", "alvalade"),
        ),
    ),
    # BR
    chat(
        u(
            "revisa esse email pra mim? é pra um cliente gringo\n\nHi Mark,\n\nI hope this email find you well. I am writing to inform that the delivery of the project will be delayed in two weeks because our team had some problems with the API integration. I am very sorry for the inconvenient.\n\nBest regards,\nPaula"
        ),
        u("deixa mais profissional mas sem exagerar no sorry"),
        u(
            "boa. meu ingles é intermediario, da pra ver ne kkk. to fazendo aula 2x por semana pra melhorar",
            e("skill", "ingles"),
            e("goal", "ingles"),
        ),
    ),
    # PT
    chat(
        u(
            "ajuda-me a escrever um requerimento à junta de freguesia a pedir a reparação de um passeio na rua onde moro, está todo levantado pelas raízes das árvores"
        ),
        u("a rua é a Rua das Flores, em Campolide", e("fact", "campolide")),
        u("põe que já caíram lá duas pessoas idosas este mês"),
    ),
    # BR
    chat(
        u(
            "cria um personagem pra minha campanha de D&D: um anão ferreiro que perdeu a família numa guerra"
        ),
        u(
            "ele fala assim: 'Eu já forjei mil espadas, mas nenhuma salvou minha filha.' melhora essa fala"
        ),
        u(
            "mestro uma mesa toda sexta com os amigos da faculdade faz uns 2 anos",
            e("skill", "mestr"),
        ),
        u("agora gera 3 ganchos de aventura pra ele"),
    ),
    # PT
    chat(
        u(
            "traduz para português de portugal:\n\n\"I've lived in Berlin for six years, I'm a vegetarian and I have two cats named Olga and Boris. I'm looking for a flatmate who doesn't smoke.\""
        ),
        u("é para um amigo meu que vem para lisboa e quer pôr o anúncio no idealista"),
        u("muda 'flatmate' para 'colega de casa'"),
    ),
    # BR
    group(
        ("Pedro", "Mariana", "Lucas"),
        by(
            "Pedro",
            "galera o trabalho de engenharia de software é pra sexta, vou pedir pro chat dividir as tarefas",
        ),
        by(
            "Mariana",
            "eu fico com o front, mexo com react faz uns 3 anos no estagio",
            e("skill", "Mariana", "react", forbid=("usuario",)),
        ),
        by(
            "Lucas",
            "eu faço o backend, mas so sei python. pode ser flask?",
            e("skill", "Lucas", "python", forbid=("usuario",)),
        ),
        by("Pedro", "pode. eu faço a documentação e os diagramas uml entao"),
        by("Mariana", "pede pra ele fazer um cronograma ate sexta"),
        by(
            "Lucas",
            "e lembrando que eu nao posso quarta a noite, trabalho de garçom",
            e("identity", "Lucas", "garcom", forbid=("usuario",)),
        ),
    ),
    # BR
    chat(
        u("como fazer um backup do whatsapp do android pro iphone?"),
        u(
            "acabei de trocar meu galaxy s21 por um iphone 15, to perdidinho",
            e("environment", "iphone", forbid=("galaxy",)),
        ),
        u("e as fotos do google fotos, passam sozinhas?"),
    ),
    # PT
    chat(
        u(
            "o que achas deste parágrafo do meu romance? 'A Teresa acordou com o som do mar. Tinha quarenta anos, dois divórcios e uma casa em Peniche que odiava.'"
        ),
        u(
            "é o primeiro capítulo de um romance que ando a escrever há quase um ano, sobre uma família de pescadores",
            e("project", "romance"),
        ),
        u("sê sincero, não me poupes"),
        u("ok, mudo o início. dá-me 3 alternativas de primeira frase"),
    ),
    # BR
    chat(
        u("preciso de um nome pra um app de controle de gastos pra casais"),
        u("quero algo em ingles, curto, tipo 'Splitwise'"),
        u("gostei de 'Duo Wallet'. ve se tem dominio livre? brincadeira, sei q vc nao consegue"),
        u(
            "é um projeto pessoal que to fazendo em kotlin pra aprender android, um app de gastos pra mim e minha esposa",
            e("project", "gastos"),
            e("goal", "android"),
            e("relationship", "esposa"),
        ),
    ),
    # PT
    chat(
        u(
            "olá! chamo-me Beatriz, sou de Braga mas estou a viver em Amesterdão há dois anos por causa do doutoramento",
            e("identity", "beatriz"),
            e("identity", "braga"),
            e("fact", "amesterdao"),
            e("fact", "doutoramento"),
        ),
        u("qual é a melhor forma de mandar dinheiro para portugal sem pagar muitas comissões?"),
        u("uso o revolut mas ouvi dizer que o wise é melhor", e("environment", "revolut")),
        u("ok, obrigada"),
    ),
    # PT
    chat(
        u("preciso de um email para o senhorio a dizer que a máquina de lavar avariou outra vez"),
        u("é a terceira vez este ano, quero que ele a substitua e não que mande o técnico de novo"),
        u("mete um tom firme mas educado"),
        u("ele chama-se Sr. Albuquerque"),
    ),
    # BR
    chat(
        u("oq significa 'gaslighting'? vi num video e fiquei boiando"),
        u("e 'love bombing'?"),
        u(
            "entendi. minha amiga ta passando por isso com o namorado, o que eu posso falar pra ela?"
        ),
        u(
            "valeu, vou conversar com ela hj. sou psicologa mas com amigo é sempre mais dificil né",
            e("identity", "psicolog"),
        ),
    ),
    # PT
    chat(
        u("hey, can you help me with a cover letter? é para uma vaga em dublin, em inglês"),
        u(
            "sou UX designer há 5 anos, trabalho atualmente na outsystems",
            e("identity", "ux"),
            e("fact", "outsystems"),
        ),
        u(
            "the role is Senior Product Designer at Intercom, aqui está a descrição:\n\nWe're looking for a Senior Product Designer to join our Messenger team. You'll own end-to-end design for features used by millions... You have 5+ years of experience designing complex SaaS products, a strong portfolio, and excellent communication skills."
        ),
        u("faz mais curto, 250 palavras"),
        u(
            "quero muito ir viver para a irlanda, já há uns anos que ando com esta ideia",
            e("goal", "irlanda"),
        ),
    ),
    # BR
    chat(
        u("qual a diferença entre docker e maquina virtual? explica simples"),
        u(
            "no meu trampo uso docker compose pra subir o ambiente local mas nunca entendi direito o que acontece por baixo",
            e("environment", "docker"),
        ),
        u("e kubernetes entra onde nisso?"),
        u("quero tirar a certificação CKA até o fim do ano, vale a pena?", e("goal", "cka")),
    ),
    # PT
    chat(
        u("que raça de cão é boa para apartamento pequeno e pessoa que trabalha fora o dia todo?"),
        u("se eu tivesse uma casa com jardim mudava tudo né, mas não é o caso"),
        u(
            "e gatos? o meu namorado é que quer um cão, eu prefiro gatos",
            e("relationship", "namorado"),
            e("preference", "gato"),
        ),
    ),
    # BR
    chat(
        u(
            "cara eu moro em manaus faz 1 ano, vim de são paulo, e nao me acostumo com esse calor. dicas?",
            e("fact", "manaus", forbid=("sao paulo",)),
        ),
        u("ar condicionado aqui em casa ja tem, o problema é na rua"),
        u("e roupa? uso muito jeans ainda kkk"),
    ),
    # PT
    chat(
        u("bom dia, preciso de ajuda a planear as refeições da semana cá para casa"),
        u(
            "somos 4: eu, o meu marido e os gémeos, que fizeram 7 anos em janeiro",
            e("relationship", "marido"),
            e("relationship", "gemeos"),
        ),
        u(
            "eu sou celíaca, por isso tudo sem glúten, o resto da família come de tudo",
            e("fact", "celiac"),
        ),
        u("nada de peixe cru, os miúdos não tocam nisso"),
        u("faz uma lista de compras organizada pelas secções do continente"),
        u("esquece o bacalhau, ainda temos em casa"),
        u(
            "ah e sempre que te pedir planos de refeições põe as calorias por dose, ok?",
            e("instruction", "calorias"),
        ),
        u("obrigada, és um espetáculo"),
    ),
    # PT
    chat(
        u(
            "mudei de emprego, saí da vodafone e agora estou na sonae como gestora de produto, e preciso de perceber rápido o que é isto dos OKRs",
            e("fact", "sonae", forbid=("vodafone",)),
            e("identity", "gestora de produto"),
        ),
        u("dá-me exemplos para uma equipa de e-commerce"),
    ),
    # PT
    chat(
        u(
            "preciso de fazer deploy de uma app django num vps da hetzner, qual o setup mais simples? nginx + gunicorn?"
        ),
        u("o server é pequeno, 2 vcpu e 4gb"),
        u(
            "programo em python ha uns 8 anos mas devops nunca foi a minha praia",
            e("skill", "python"),
        ),
        u(
            'da 502 bad gateway\n\n2025/03/02 10:14:22 [crit] 1234#1234: *1 connect() to unix:/run/gunicorn.sock failed (2: No such file or directory) while connecting to upstream, client: 85.240.1.2, server: reservas.pt, request: "GET / HTTP/1.1", upstream: "http://unix:/run/gunicorn.sock:/"'
        ),
        u(
            "ja esta, faltava o systemctl enable do socket. btw prefiro sempre solucoes sem docker quando da, acho que complica mais do que ajuda",
            e("preference", "docker"),
        ),
        u("tks!!"),
    ),
    # PT
    chat(
        u(
            "quero praticar alemão. faz de conta que és empregado num café em munique e eu vou pedir qualquer coisa"
        ),
        u(
            "Hallo! Ich möchte einen Kaffee und ein Stück Apfelstrudel, bitte. Ich komme aus Portugal und wohne in Aveiro."
        ),
        u("corrige os meus erros pf"),
        u(
            "ando a aprender alemão há 6 meses no goethe, a ideia é mudar-me para viena no próximo ano",
            e("goal", "alem"),
            e("goal", "viena"),
        ),
        u("ok, continua o diálogo"),
    ),
)
