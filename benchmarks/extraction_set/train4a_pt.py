# ruff: noqa: E501  (message texts are data: kept on one line each)
"""A new training batch of Portuguese conversations of the extraction evaluation set, ids `pt-train4a-*`, split `dev`, used to train the extractor's learned stage: Brazilian (most of them, several regions, informal WhatsApp-like writing) and European Portuguese chats with an assistant and four group conversations, weighted to work, public-service exams, money, family, health and university. They were written blind, from knowledge of how people talk to chat assistants, without reading the extractor, its tests, the benchmark or any other conversation of the set; only `turns.py`'s shape was used."""

from __future__ import annotations

from typing import Final

from turns import Conversation, by, chat, e, group, u

CONVERSATIONS: Final[tuple[Conversation, ...]] = (
    chat(
        u(
            "oi, to estudando pro concurso do INSS, tenho 34 anos e trabalho de caixa num supermercado aqui em Feira de Santana, me ajuda a montar um cronograma?",
            e("goal", "INSS"),
            e("identity", "34"),
            e("identity", "caixa"),
            e("fact", "Feira de Santana"),
        ),
        u("so tenho umas 2h por dia de noite, sabado livre"),
        u("pode colocar mais direito constitucional pq é onde eu vou pior nos simulados"),
        u("valeu!! ficou otimo"),
    ),
    chat(
        u("vc sabe a diferença entre tesouro selic e cdb de liquidez diaria?"),
        u(
            "supondo alguem que ganha 4200 e gasta uns 3 mil por mes, quanto deveria ter de reserva de emergencia?"
        ),
        u(
            "ah e eu sou confeiteira, MEI, vendo bolo de pote e brigadeiro por encomenda, isso muda algo na reserva?",
            e("identity", "confeit"),
        ),
        u("entendi. e onde eu deixo o dinheiro do DAS pra nao misturar?"),
    ),
    chat(
        u(
            "traduz isto para inglês pf: 'Caro Sr. Smith, venho por este meio informar que estarei de férias de 3 a 17 de agosto e que a minha colega Marta ficará responsável pelos seus pedidos durante esse período. Com os melhores cumprimentos, Joana'"
        ),
        u("mais formal, é para um cliente importante"),
        u(
            "obrigado. ja agora, sou de Braga mas vivo em Lisboa há 6 anos, um inglês percebe se eu disser 'I'm from Braga, near Porto'?",
            e("identity", "Braga"),
            e("fact", "Lisboa"),
        ),
    ),
    chat(
        u(
            "to tendo esse erro e nao entendo\n```\nTraceback (most recent call last):\n  File \"/home/rafa/projetos/estoque/main.py\", line 42, in <module>\n    total = calcular_total(itens)\n  File \"/home/rafa/projetos/estoque/main.py\", line 17, in calcular_total\n    soma += item['preco'] * item['qtd']\nKeyError: 'preco'\n```\no json vem da api do fornecedor"
        ),
        u(
            "ahh o campo se chama 'preço' com cedilha kkkk. agora quero que a função retorne uma lista de dicts e nao um dataframe"
        ),
        u(
            "funcionou. btw uso vscode no ubuntu, tem alguma extensao boa pra ver dataframe?",
            e("environment", "vscode"),
            e("environment", "ubuntu"),
        ),
    ),
    chat(
        u(
            "o meu médico disse-me que tenho o colesterol alto, o que posso comer ao pequeno-almoço?",
            e("fact", "colesterol"),
        ),
        u("não suporto aveia, há alternativas?", e("preference", "aveia")),
        u("e pão de centeio com queijo fresco?"),
        u("ok obrigada, vou experimentar"),
    ),
    chat(
        u(
            "sou aluna de enfermagem na UFPE, to no 5 periodo e preciso revisar a introducao do meu tcc sobre aleitamento materno exclusivo",
            e("fact", "enfermagem"),
            e("fact", "UFPE"),
            e("project", "aleitamento"),
        ),
        u(
            "corrige a gramatica: 'Neste estudo eu entrevistei 20 mães atendidas na unidade básica de saúde, onde as mesmas relataram que a principal dificuldade foi a volta ao trabalho, aonde não havia local adequado para ordenha.'"
        ),
        u("ta muito formal? a orientadora gosta de texto direto"),
        u("perfeito obg"),
    ),
    chat(
        u(
            "escreve uma resposta modelo pra pergunta 'fale sobre vc' de entrevista de trainee, tipo 'sou formado em engenharia de produção, tenho perfil analítico e gosto de desafios'"
        ),
        u(
            "na real eu me formei em administracao pela UFMG e to tentando o programa de trainee da Ambev mesmo, entao adapta pra mim",
            e("fact", "administra"),
            e("goal", "trainee"),
        ),
        u("tira o 'gosto de desafios', todo mundo fala isso"),
        u("e se perguntarem meu maior defeito?"),
    ),
    group(
        ("Juliana", "Marcos"),
        by(
            "Juliana",
            "gente a gente precisa dividir as contas da casa direito, acho que tem que ser proporcional ao salario de cada um",
        ),
        by(
            "Marcos",
            "concordo. so lembrando que eu sou vegetariano entao o mercado nao da pra ser meio a meio kkk",
            e("fact", "Marcos", "vegetarian", forbid=("usuario",)),
        ),
        by(
            "Juliana",
            "faz uma planilha pra gente? eu uso o google sheets pelo celular mesmo",
            e("environment", "Juliana", "sheets", forbid=("usuario",)),
        ),
        by(
            "Marcos",
            "e coloca uma linha pra racao e vet da Mel, minha cachorra",
            e("relationship", "Marcos", "Mel", forbid=("usuario",)),
        ),
        by("Juliana", "isso. e luz, agua, internet e condominio"),
    ),
    chat(
        u(
            "reescreve este anúncio para o LinkedIn: 'Procuramos programador(a) Java com 3 anos de experiência, conhecimentos de Spring Boot e SQL, para trabalhar em regime híbrido em Aveiro. Oferecemos seguro de saúde e formação contínua.'"
        ),
        u("mais curto e com emojis"),
        u("prefiro a segunda versão, mas tira o foguetão"),
    ),
    chat(
        u(
            "a partir de agora me responde sempre em topicos curtos, sem textao pfv",
            e("instruction", "topic"),
        ),
        u("quais documentos preciso pra tirar passaporte?"),
        u("e quanto ta a taxa?"),
        u("da pra agendar pela internet?"),
    ),
    chat(
        u(
            "minha mae tem 68 anos e foi diagnosticada com diabetes tipo 2, quais alimentos ela deve evitar?"
        ),
        u(
            "ela mora comigo desde o ano passado e sou eu que cozinho pra casa toda",
            e("relationship", "mae"),
        ),
        u("pode fazer um cardapio semanal barato? tipo coisa de feira"),
        u("troca o peixe de terça por frango, ela nao gosta"),
    ),
    chat(
        u(
            "estou a fazer uma app em React Native para gerir as marcações da clínica de fisioterapia da minha irmã",
            e("project", "marca"),
            e("environment", "react native"),
        ),
        u(
            "dá este erro ao compilar: 'Invariant Violation: requireNativeComponent: \"RNSScreen\" was not found in the UIManager.'"
        ),
        u("o telemóvel onde testo é um android antigo, um Samsung A10", e("environment", "A10")),
        u("já correu, obrigado!!"),
    ),
    chat(
        u("kkkkk vc é engraçado as vezes"),
        u(
            "qual o maior time do brasil? pergunto pq sou flamenguista roxo e meu cunhado diz que é o corinthians",
            e("preference", "flameng"),
        ),
        u("manda uns argumentos pra eu zoar ele no churrasco"),
    ),
    chat(
        u(
            "PASSEI no concurso da prefeitura de Campinas!!! comeco mes que vem como agente administrativo",
            e("identity", "agente administrativ"),
            e("fact", "prefeitura", forbid=("magazine",)),
        ),
        u(
            "preciso escrever meu pedido de demissao pra Magazine Luiza, onde trabalho hoje, me ajuda?"
        ),
        u("deixa mais educado, gostei muito de trabalhar la e quero deixar as portas abertas"),
        u("coloca que cumpro o aviso previo"),
    ),
    chat(
        u("se eu vivesse na Suíça quanto pagaria de impostos com um salário de 80 mil francos?"),
        u("e na Alemanha com 70 mil euros?"),
        u(
            "pergunto porque a minha namorada é alemã e estamos a pensar mudar-nos para Munique no próximo ano",
            e("relationship", "namorad"),
            e("goal", "Munique"),
        ),
        u("quanto custa um T2 lá mais ou menos?"),
    ),
    chat(
        u(
            "corrige minha redação do enem: 'A persistência da violência contra a mulher no Brasil é um problema que precisa ser combatido. Segundo dados do Fórum Brasileiro de Segurança Pública, uma mulher é agredida a cada 4 minutos...'"
        ),
        u("da uma nota de 0 a 1000 por competencia"),
        u(
            "vou fazer o enem de novo esse ano, quero muito passar em medicina na USP",
            e("goal", "medicina"),
        ),
        u("qual competencia eu mais preciso melhorar?"),
    ),
    chat(
        u("to tentando fazer um procv que puxe o valor da outra aba"),
        u("=PROCV(A2;Plan2!A:C;3;0) so da #N/D"),
        u("no trabalho é excel 2016, nao tem xlookup", e("environment", "excel")),
        u("era espaço no final do codigo, aff. valeu"),
    ),
    chat(
        u(
            "tenho intolerância à lactose, dá-me uma receita de bacalhau com natas que eu possa comer",
            e("fact", "lactose"),
        ),
        u("para 4 pessoas"),
        u("perfeito, obrigado"),
    ),
    chat(
        u("me explica juros compostos como se eu tivesse 10 anos"),
        u("agora um exemplo com 500 reais por mes durante 5 anos"),
        u(
            "to tentando juntar uns 50 mil pra dar entrada num ape ate 2028, da?",
            e("goal", "entrada"),
        ),
        u("e se for 800 por mes?"),
    ),
    group(
        ("Inês", "Tiago"),
        by(
            "Inês", "vamos aos Açores em setembro, ajuda-nos com um roteiro de 5 dias em São Miguel"
        ),
        by(
            "Tiago",
            "atenção que eu tenho vertigens, nada de trilhos à beira de precipícios",
            e("fact", "Tiago", "vertigen", forbid=("usuario",)),
        ),
        by(
            "Inês",
            "e eu adoro termas, põe a Poça da Dona Beija e a Caldeira Velha",
            e("preference", "Inês", "terma", forbid=("usuario",)),
        ),
        by("Tiago", "boa. e restaurantes baratos pf, nada de sítios para turistas"),
    ),
    chat(
        u("quanto tempo leva pra ficar fluente em ingles?"),
        u("espanhol eu falo bem pq morei 2 anos em Buenos Aires", e("skill", "espanhol")),
        u(
            "meu objetivo é ficar fluente em ingles pra trabalhar remoto pra empresa gringa",
            e("goal", "ingl"),
        ),
        u("monta um plano de estudos de 6 meses"),
    ),
    chat(
        u(
            "sou dev backend, mexo com golang ha uns 4 anos, mas concorrencia ainda me pega. olha isso:\n```go\nfunc main() {\n    ch := make(chan int)\n    for i := 0; i < 10; i++ {\n        go func() { ch <- i }()\n    }\n    for v := range ch {\n        fmt.Println(v)\n    }\n}\n```\nfatal error: all goroutines are asleep - deadlock!",
            e("identity", "backend"),
            e("skill", "golang"),
        ),
        u("nao quero usar mutex, quero resolver so com channels e waitgroup"),
        u("pq precisa fechar o channel numa goroutine separada?"),
    ),
    chat(
        u(
            "atua como professor de português e corrige os meus erros: 'Ontem eu fui no cinema com o meu irmão e vimos um filme de terror muito assustador, depois fomos a jantar em casa da minha tia.'"
        ),
        u(
            "ah e sou ucraniana, estou em Portugal há dois anos, ainda faço muitos erros com preposições",
            e("identity", "ucranian"),
            e("fact", "Portugal"),
        ),
        u("mais exercícios pf, só de 'a' e 'em'"),
        u("a 4 não percebi"),
    ),
    chat(
        u("escreve um email pro meu gestor pedindo home office 2x por semana"),
        u(
            "contexto: sou analista de dados no Itaú, moro em Guarulhos e levo quase 2h pra chegar na Faria Lima",
            e("identity", "analista"),
            e("fact", "Itau"),
            e("fact", "Guarulhos"),
        ),
        u("tira a parte do transito, ficou muito reclamao"),
        u("show, manda"),
    ),
    chat(
        u(
            "tenho 52 anos e hipertensao, posso tomar dorflex pra dor nas costas?",
            e("identity", "52"),
            e("fact", "hiperten"),
        ),
        u("e paracetamol?"),
        u("ok vou perguntar pro farmaceutico"),
    ),
    chat(
        u("que portátil me recomendas até 800 euros para programar?"),
        u(
            "atualmente uso um MacBook Air de 2015 que já está a morrer",
            e("environment", "macbook"),
        ),
        u("no fundo prefiro linux, mas a bateria tem de durar", e("preference", "linux")),
        u("e o thinkpad e14?"),
    ),
    chat(
        u("meu gato, o Paçoca, ta vomitando bola de pelo, é normal?", e("relationship", "pacoca")),
        u("ele come racao seca e tem uns 3 anos"),
        u("ok vou levar no vet se continuar"),
    ),
    chat(
        u("quem disse 'a vida é o que acontece enquanto vc faz outros planos'?"),
        u("minha vó sempre falava isso kkk"),
        u("faz uma legenda pro insta com essa frase, foto de viagem"),
    ),
    chat(
        u(
            "estou no 2º ano de Engenharia Informática no Técnico e tenho exame de Análise Matemática II na sexta",
            e("fact", "informatica"),
            e("fact", "tecnico"),
        ),
        u("explica integrais duplos em coordenadas polares"),
        u("outro exemplo, com um círculo de raio 2"),
        u("obrigado salvaste-me"),
    ),
    chat(
        u(
            "larguei o sublime e agora to no neovim, como configuro LSP pra python?",
            e("environment", "neovim", forbid=("sublime",)),
        ),
        u(
            "colei isso no init.lua:\n```lua\nrequire('lspconfig').pyright.setup{}\nvim.keymap.set('n', 'gd', vim.lsp.buf.definition)\n```\ne deu: module 'lspconfig' not found"
        ),
        u("to usando lazy.nvim"),
        u("agora foi"),
    ),
    chat(
        u(
            "reescreve essa clausula do contrato de aluguel: 'O LOCATÁRIO se compromete a devolver o imóvel nas mesmas condições em que o recebeu, salvo o desgaste natural pelo uso.'"
        ),
        u(
            "eu sou o locador, tenho duas kitnets em Londrina que alugo pra estudante",
            e("fact", "kitnet"),
        ),
        u("coloca multa de 3 alugueis se sair antes de 12 meses"),
    ),
    group(
        ("Rita", "Duarte", "Sofia"),
        by("Rita", "temos de entregar o relatório de Bioquímica até dia 12, quem faz o quê?"),
        by(
            "Duarte",
            "eu faço a estatística, já trabalho com SPSS há uns anos",
            e("skill", "Duarte", "SPSS", forbid=("usuario",)),
        ),
        by(
            "Sofia",
            "eu escrevo a introdução, mas aviso que esta semana estou a trabalhar no Pingo Doce à noite",
            e("fact", "Sofia", "Pingo Doce", forbid=("usuario",)),
        ),
        by("Rita", "ok, eu fico com a discussão. faz-nos um plano com datas"),
    ),
    chat(
        u(
            "por favor, sempre que eu mandar codigo comenta as linhas em portugues",
            e("instruction", "coment"),
        ),
        u(
            "```js\nconst soma = arr => arr.reduce((a, b) => a + b, 0)\nconst media = arr => soma(arr) / arr.length\nconsole.log(media([7, 8.5, 6]))\n```"
        ),
        u("valeu"),
    ),
    chat(
        u("qual a diferenca real entre CLT e PJ? recebi proposta de 12k como PJ"),
        u("hoje sou CLT na Totvs ganhando 9 mil bruto", e("fact", "Totvs")),
        u("calcula quanto fica liquido nos dois, considerando ferias e 13"),
        u("e se for simples nacional anexo III?"),
    ),
    chat(
        u(
            "me indica uma serie? odeio coisa de terror e nao curto anime",
            e("preference", "terror"),
            e("preference", "anime"),
        ),
        u("ja vi breaking bad e amei", e("preference", "breaking bad")),
        u("algo mais curto, tipo 1 temporada"),
    ),
    chat(
        u(
            "quero que respondas sempre em português de Portugal, não do Brasil",
            e("instruction", "Portugal"),
        ),
        u("como se diz 'cellphone'?"),
        u("e 'bus'?"),
    ),
    chat(
        u("virei vegana faz 3 meses e to sempre cansada, sera que é b12?", e("fact", "vegan")),
        u("que exames eu peço pro medico?"),
        u("obrigada"),
    ),
    chat(
        u("meu amigo mora em Portugal e disse que la o salario minimo é baixo, é verdade?"),
        u("ele é de Recife tb, que nem eu", e("identity", "Recife")),
        u("e como é o visto de procura de trabalho pra brasileiro?"),
    ),
    chat(
        u(
            "responde a este email por mim: 'Olá Pedro, segue em anexo a fatura de outubro. Agradecia o pagamento até ao final da semana. Cumprimentos, Luísa'"
        ),
        u(
            "sou o Pedro, sou contabilista freelancer e a Luísa é a minha designer",
            e("identity", "Pedro"),
            e("identity", "contabilista"),
        ),
        u("diz que pago até sexta"),
    ),
    chat(
        u("preciso de uma query pra pegar os 5 clientes que mais compraram no mes"),
        u(
            "é postgres 14 btw, uso dbeaver",
            e("environment", "postgres"),
            e("environment", "dbeaver"),
        ),
        u("quero que agrupe por cidade tambem"),
        u("ta dando erro de group by"),
    ),
    chat(
        u(
            "fiz direito na PUC-Rio e to me preparando pra OAB",
            e("fact", "direito"),
            e("goal", "OAB"),
        ),
        u("quais materias mais caem na primeira fase?"),
        u("me da 5 questoes de etica"),
        u("a 3 eu errei, explica"),
    ),
    chat(
        u(
            "toco guitarra há 10 anos mas nunca aprendi teoria, por onde começo?",
            e("skill", "guitarra"),
        ),
        u("explica o campo harmónico de sol maior"),
        u("fixe"),
    ),
    chat(
        u(
            "minha filha de 6 anos, a Laura, nao quer fazer o dever de casa de jeito nenhum, alguma dica?",
            e("relationship", "Laura"),
        ),
        u(
            "eu e meu marido trabalhamos fora o dia todo, ela fica na escola integral",
            e("relationship", "marido"),
        ),
        u("me da ideias de rotina pra noite"),
    ),
    chat(
        u(
            "analisa essa vaga e ve se meu perfil encaixa:\n'Vaga: Analista de Marketing Pleno\nRequisitos: 3+ anos de experiência em marketing digital; domínio de Google Ads e Meta Ads; experiência com RD Station; inglês intermediário.\nDiferenciais: SQL, Power BI.\nLocal: São Paulo, híbrido.'"
        ),
        u(
            "tenho 2 anos de experiencia em marketing digital e mexo bem com google ads e rd station",
            e("skill", "marketing"),
            e("skill", "google ads"),
        ),
        u("faz uma carta de apresentacao curta"),
        u("troca 'apaixonada por' que ta clichê"),
    ),
    chat(
        u(
            "o meu filho de 15 anos passa o dia no telemóvel, como é que falo com ele sem discutir?",
            e("relationship", "filho"),
        ),
        u("sou mãe solteira, já agora, e trabalho por turnos", e("relationship", "solteir")),
        u("e que regras faz sentido pôr?"),
    ),
    chat(
        u(
            "to pensando em abrir uma hamburgueria artesanal em Goiânia, quanto preciso de capital inicial?",
            e("goal", "hamburgueria"),
        ),
        u("moro em Anápolis mas Goiânia tem mais movimento", e("fact", "Anapolis")),
        u("faz um plano de negocios simples, uma pagina"),
    ),
    chat(
        u("minha chefe é muito grossa, como lido com isso?"),
        u("ela grita na frente de todo mundo nas reunioes"),
        u("vale ir no RH ou piora?"),
    ),
    chat(
        u(
            "resume este texto em 3 frases: 'O Banco de Portugal reviu em alta as previsões de crescimento da economia portuguesa para este ano, para 2,1%, impulsionado pelo consumo privado e pelo turismo. A instituição alerta, contudo, para os riscos associados à inflação nos serviços e à incerteza internacional.'"
        ),
        u("mais curto"),
    ),
    chat(
        u(
            "meu celular é um xiaomi redmi note 12, como faço backup do whatsapp pro google drive?",
            e("environment", "redmi"),
        ),
        u("nao aparece a opcao de conta google"),
        u("achei, obrigado"),
    ),
    chat(
        u(
            "quero fazer mestrado fora, talvez Portugal ou Canadá, por onde eu começo?",
            e("goal", "mestrado"),
        ),
        u(
            "sou formado em biologia pela UFPA, trabalho com ecologia de peixes",
            e("fact", "biologia"),
        ),
        u("tem bolsa pra brasileiro?"),
    ),
    chat(
        u(
            "mudei-me de Coimbra para o Porto o mês passado, que ginásios baratos há perto da Boavista?",
            e("fact", "Porto", forbid=("coimbra",)),
        ),
        u("gosto de treinar de manhã cedo, antes do trabalho", e("preference", "manha")),
        u("ok, vou ver o da rua de Cedofeita"),
    ),
    chat(
        u(
            "preciso montar o deck pro meu pitch amanha, o meeting é com investors anjo, me ajuda com o storytelling?"
        ),
        u(
            "a startup é minha, a gente faz um app de delivery de marmita fit em BH",
            e("project", "marmita"),
        ),
        u("o slide de market size ta fraco, melhora"),
        u("agora traduz tudo pra ingles"),
    ),
    group(
        ("Bruna", "Felipe"),
        by(
            "Bruna",
            "oi! eu e o Felipe vamos casar em maio e o orçamento é 40 mil, ajuda a gente a organizar",
            e("relationship", "Bruna", "Felipe", forbid=("usuario",)),
        ),
        by(
            "Felipe",
            "eu sou alergico a camarao entao nada de frutos do mar no buffet",
            e("fact", "Felipe", "camar", forbid=("usuario",)),
        ),
        by("Bruna", "e a festa tem q ser em Curitiba pq a familia toda ta la"),
        by("Felipe", "faz uma lista de fornecedores e quanto reservar pra cada"),
    ),
    chat(
        u(
            "corrige: 'Gostaria de solicitar o cancelamento do meu plano pois estou me mudando para o exterior no próximo mês.'"
        ),
        u("na real to indo pra Irlanda fazer intercambio em janeiro", e("goal", "Irlanda")),
        u("valeu"),
    ),
    chat(
        u(
            "sou enfermeiro no Santa Maria e faço turnos noturnos, como consigo dormir melhor de dia?",
            e("identity", "enfermeir"),
            e("fact", "Santa Maria"),
        ),
        u("já experimentei melatonina e não fez grande diferença"),
        u("tenho 29 anos, se isso importa", e("identity", "29")),
    ),
    chat(
        u(
            "tenho esse dataframe e quero um grafico de barras empilhadas por mes:\n```python\nimport pandas as pd\ndf = pd.DataFrame({'mes': ['jan', 'fev', 'mar'], 'fixo': [1200, 1200, 1250], 'variavel': [800, 650, 900]})\n```"
        ),
        u("cores mais claras e legenda embaixo"),
        u(
            "em geral prefiro seaborn ao matplotlib puro, da pra fazer com ele?",
            e("preference", "seaborn"),
        ),
    ),
    chat(
        u("responde so sim ou nao: da pra congelar feijao cozido?"),
        u("e por quanto tempo?"),
    ),
    chat(
        u("escreve um poema de aniversário para a minha avó que faz 90 anos"),
        u("ela chama-se Rosa e adora o jardim"),
        u("mais curto e com rima"),
    ),
    chat(
        u(
            "sou professora de matematica da rede estadual em Manaus faz 12 anos, me ajuda a fazer uma prova de equacao do 2 grau pro 9 ano?",
            e("identity", "professor"),
            e("fact", "Manaus"),
        ),
        u("10 questoes, 3 mais dificeis no final"),
        u("coloca contexto do dia a dia, tipo feira, terreno, essas coisas"),
        u("gabarito separado pfv"),
    ),
    chat(
        u(
            "estou a escrever um romance policial passado em Setúbal nos anos 80, podes ajudar-me com nomes de época para as personagens?",
            e("project", "romance"),
        ),
        u(
            "o inspetor diz: 'eu nunca saí de Setúbal e não vou sair agora, nem que me paguem'. soa natural para a época?"
        ),
        u("daqui para a frente trata-me por tu, não gosto nada do 'você'", e("instruction", "tu")),
        u("e uma alcunha para o vilão?"),
    ),
    chat(
        u(
            "preciso dar um feedback pra um liderado direto, ele ta underperforming faz uns 3 sprints e eu nao sei como abordar"
        ),
        u(
            "sou tech lead faz so 1 ano, é a primeira vez que faço um one-on-one dificil assim",
            e("identity", "tech lead"),
        ),
        u("escreve um roteiro pra call, mais humano e menos corporate"),
    ),
)
