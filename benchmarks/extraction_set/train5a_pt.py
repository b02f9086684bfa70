# ruff: noqa: E501  (message texts are data: kept on one line each)
"""A new training batch of Portuguese conversations of the extraction evaluation set (ids
`pt-train5a-*`, split `dev`), used to train the extractor's learned stage: European Portuguese
(Lisboa, Porto, Braga, Açores, Madeira, emigrants in France, Switzerland and Luxembourg) and
Brazilian Portuguese chats about work, university, renting, football, family, cooking and
emigration, with pasted code, e-mails, texts to translate or proofread, role-play, hypotheticals
and five group conversations. Written blind: without reading the extractor, its tests, the
benchmark or any other conversation of the set; only `turns.py`'s shape was used."""

from __future__ import annotations

from typing import Final

from turns import Conversation, by, chat, e, group, u

CONVERSATIONS: Final[tuple[Conversation, ...]] = (
    chat(
        u(
            "boa tarde, preciso de ajuda para escrever um email ao senhorio. a casa de banho tem infiltrações há 3 semanas e ele simplesmente nao responde às mensagens. moro num T1 em arroios desde setembro, pago 850€ de renda e ja estou farta",
            e("fact", "Arroios"),
        ),
        u(
            "pode ser mais curto e menos agressivo? não quero estragar a relação com ele, ainda tenho contrato até 2027"
        ),
        u(
            "perfeito. e se ele não responder em 8 dias o que posso fazer legalmente? vou à DECO? ao julgado de paz?"
        ),
    ),
    chat(
        u(
            "quem ganhou mais campeonatos, o benfica ou o porto? estamos aqui a discutir no café e ninguém se entende lol"
        ),
        u(
            "eu sou do sporting desde miúdo por isso tanto me faz quem ganhar a discussão 😂",
            e("preference", "Sporting"),
        ),
        u("e o sporting tem quantos ao certo?"),
        u("pois, já foi melhor. obrigado"),
    ),
    chat(
        u(
            "pq isso ta dando erro??\n\n```\ndef total_carrinho(itens):\n    return sum(i['preco'] * i['qtd'] for i in itens)\n\nprint(total_carrinho(carrinho))\n```\n\nTraceback (most recent call last):\n  File \"/home/dev/loja/carrinho.py\", line 14, in <module>\n    print(total_carrinho(carrinho))\n  File \"/home/dev/loja/carrinho.py\", line 11, in total_carrinho\n    return sum(i['preco'] * i['qtd'] for i in itens)\n  File \"/home/dev/loja/carrinho.py\", line 11, in <genexpr>\n    return sum(i['preco'] * i['qtd'] for i in itens)\nKeyError: 'preco'"
        ),
        u(
            "ah entendi, alguns itens vem da api sem o campo. quero que a funcao ignore esses itens e retorne tb uma lista com os ids que ficaram de fora"
        ),
        u("valeu, funcionou de primeira"),
    ),
    chat(
        u(
            "olá boa noite. trabalho nas obras em lausanne há 6 anos, sou pedreiro, e queria pedir a autorização C. que papeis preciso de juntar?",
            e("fact", "Lausanne"),
            e("identity", "pedreir"),
        ),
        u(
            "o meu francês dá para falar no dia a dia mas a escrever sou uma desgraça",
            e("skill", "franc"),
        ),
        u(
            "podes escrever-me uma carta para o contrôle des habitants a pedir informação sobre isso? em francês claro"
        ),
        u("muito obrigado, amanhã imprimo e levo lá"),
    ),
    chat(
        u(
            "atua como um cliente muito irritado de uma operadora de telecomunicações, eu sou o assistente de apoio ao cliente e quero treinar. tu começas"
        ),
        u("boa tarde, fala o joão da linha de apoio, em que posso ajudar?"),
        u(
            "compreendo perfeitamente a sua frustração. vou verificar a sua conta, pode indicar-me o NIF do titular?"
        ),
        u(
            "ok para aqui. como é que me saí? comecei a trabalhar num call center há 2 meses e ainda fico nervoso com clientes assim",
            e("identity", "call center"),
        ),
    ),
    chat(
        u(
            "estou no 2º ano de engenharia informática no técnico e tenho exame de cálculo II na sexta. explica-me séries de taylor como se eu tivesse 10 anos",
            e("fact", "inform"),
        ),
        u("não percebi nada da parte do resto de lagrange"),
        u("dá-me 3 exercícios com soluções no fim"),
        u(
            "já agora, daqui para a frente explica-me sempre primeiro com um exemplo numérico e só depois a teoria, funciono melhor assim",
            e("instruction", "exemplo"),
        ),
    ),
    chat(
        u("qual a receita de escondidinho de carne seca? vou fazer pra umas 6 pessoas no domingo"),
        u("a namorada do meu cunhado é celíaca, com o que eu posso engrossar o purê?"),
        u(
            "ah e eu não como pimenta de jeito nenhum, tira da receita por favor",
            e("preference", "pimenta"),
        ),
    ),
    group(
        ("Marta", "Tiago"),
        by(
            "Marta",
            "vamos fazer o jantar de natal cá em casa em braga este ano? a minha mãe já disse que não tem força para 12 pessoas",
            e("fact", "Marta", "Braga", forbid=("usuario",)),
        ),
        by(
            "Tiago",
            "por mim sim mas lembra-te que sou vegetariano desde agosto, nada de bacalhau para mim",
            e("fact", "Tiago", "vegetarian", forbid=("usuario",)),
        ),
        by(
            "Marta",
            "ok. assistente, sugere um menu de natal para 12 pessoas com uma opção vegetariana que não pareça um castigo",
        ),
        by(
            "Tiago",
            "e sem cogumelos por favor, odeio cogumelos desde sempre",
            e("preference", "Tiago", "cogumel", forbid=("usuario",)),
        ),
        by(
            "Marta",
            "ele é esquisito lol. faz também a lista de compras dividida por supermercado e talho",
        ),
    ),
    chat(
        u(
            "reescreve essa vaga pra ficar mais atraente:\n\nVAGA: Desenvolvedor(a) Front-end Pleno\nLocal: São Paulo (híbrido, 2x por semana)\nSobre nós: Somos uma fintech que está revolucionando o crédito para pequenos negócios 🚀\nO que você vai fazer:\n- Desenvolver interfaces em React e TypeScript\n- Trabalhar junto com o time de produto e design\n- Garantir a qualidade do código com testes automatizados\nRequisitos:\n- 3+ anos de experiência com React\n- Inglês intermediário\nBenefícios: VR, VA, plano de saúde, Gympass, day off no aniversário"
        ),
        u("ficou longo demais, corta pela metade"),
        u("melhor. mas tira o emoji de foguete kkkk todo mundo usa"),
    ),
    chat(
        u(
            "bonjour lol. sou português mas vivo em lyon há 12 anos e os meus filhos só falam francês comigo, queria arranjar atividades para eles aprenderem português",
            e("fact", "Lyon"),
            e("relationship", "filh"),
        ),
        u("eles têm 7 e 10 anos e adoram futebol se ajudar"),
        u("há cursos do instituto camões lá perto?"),
        u("ok, vou ver isso. merci!"),
    ),
    chat(
        u(
            "traduz pro inglês: 'Meu nome é Juliana, moro em Curitiba há cinco anos e trabalho como designer gráfica. Sou apaixonada por tipografia e tenho experiência com marcas de moda.'"
        ),
        u(
            "é pra uma amiga, ela vai mandar pra uma vaga no canadá. deixa mais natural, menos traduzido"
        ),
        u("top, obrigada"),
    ),
    chat(
        u(
            "tenho doença de crohn e estou numa crise desde domingo, que alimentos devo evitar estes dias?",
            e("fact", "crohn"),
        ),
        u("e pão? posso comer pão branco?"),
        u(
            "ok. responde-me sempre em tópicos curtos por favor, custa-me muito ler textos longos",
            e("instruction", "topic"),
        ),
        u("obrigada"),
    ),
    chat(
        u(
            "to usando neovim no arch e o lsp do python simplesmente nao inicia, ja instalei o pyright pelo mason",
            e("environment", "neovim"),
            e("environment", "Arch"),
        ),
        u(
            "o :LspInfo mostra isso:\n\nLanguage client log: /home/rafa/.local/state/nvim/lsp.log\nDetected filetype:   python\n\n0 client(s) attached to this buffer:\n\nOther clients that match the filetype: python\n\nConfig: pyright\n  filetypes:         python\n  root directory:    Not found.\n  cmd:               pyright-langserver --stdio\n  cmd is executable: true\n  autostart:         true"
        ),
        u("ahh era o root dir, nao tinha pyproject nem .git na pasta. funcionou"),
    ),
    chat(
        u(
            "se eu fosse viver para o japão, quanto precisava de ganhar por mês para viver bem em tóquio?"
        ),
        u("e se tivesse dois filhos e a minha mulher não trabalhasse?"),
        u(
            "ok era só curiosidade, daqui de viseu não saio nem que me paguem, a minha vida é cá",
            e("fact", "Viseu"),
        ),
    ),
    chat(
        u(
            "corrige os erros dessa redação sem mudar o estilo:\n\n'Desde pequena eu sonhava em ser médica. Quando eu tinha oito anos minha avó ficou doente e eu passava as tardes no hospital com ela, foi lá que eu descobri que queria cuidar das pessoas. Hoje em dia, apesar das dificuldades, continuo acreditando que a medicina é minha vocação.'"
        ),
        u(
            "é a redação do meu filho pro enem, ele tá super nervoso. a história é inventada tá, kkk",
            e("relationship", "filho"),
        ),
        u("dá uma nota de 0 a 1000 pra ela seguindo os critérios"),
    ),
    chat(
        u(
            "sou enfermeira no são joão e faço turnos da noite, dá-me ideias de jantares rápidos para levar na marmita",
            e("identity", "enfermeir"),
            e("fact", "São João"),
        ),
        u("sem micro-ondas, no meu serviço não há"),
        u("adoro comida mexicana se isso ajudar", e("preference", "mexican")),
        u("a segunda ideia é top, manda a receita com quantidades para 3 dias"),
    ),
    chat(
        u("oi tudo bem?"),
        u("me conta uma piada de programador"),
        u("kkkkkk essa foi boa, outra"),
    ),
    chat(
        u("estou a tentar fazer um regex para validar códigos postais portugueses tipo 4700-123"),
        u("quero que aceite tambem sem o hífen, tipo 4700123"),
        u("é para javascript, num input de um formulário"),
        u("dá erro no safari antigo?"),
    ),
    chat(
        u(
            "saí da ambev mês passado e comecei no nubank como analista de risco de crédito, me ajuda a atualizar meu linkedin?",
            e("fact", "Nubank", forbid=("Ambev",)),
            e("identity", "risco"),
        ),
        u("escreve o resumo em inglês tb, muitos recrutadores gringos me acham por lá"),
        u("menos formal, tá parecendo carta de banco"),
    ),
    chat(
        u(
            "sou do funchal mas estou a estudar em coimbra, qual é a maneira mais barata de ir a casa no natal?",
            e("identity", "Funchal"),
            e("fact", "Coimbra"),
        ),
        u("tenho cartão jovem, isso dá desconto nos voos?"),
        u(
            "e o subsídio social de mobilidade como funciona ao certo? tenho de pagar tudo primeiro?"
        ),
    ),
    chat(
        u(
            "minha gata, a paçoca, parou de comer ração desde ontem à noite, devo me preocupar?",
            e("relationship", "Paçoca"),
        ),
        u("ela tem 14 anos e é castrada"),
        u("ok vou levar na vet amanhã cedo, obg"),
    ),
    group(
        ("Lucas", "Bia"),
        by("Lucas", "gente bora pedir pra IA nome pra nossa hamburgueria de delivery"),
        by(
            "Bia",
            "eu sou confeiteira então quero sobremesa no cardápio sim, não abro mão",
            e("identity", "Bia", "confeit", forbid=("usuario",)),
        ),
        by(
            "Lucas",
            "a cozinha vai ser aqui em casa em niterói, já tenho alvará da prefeitura",
            e("fact", "Lucas", "Niter", forbid=("usuario",)),
        ),
        by("Bia", "sugere 5 nomes divertidos, nada com 'burger' no fim pfv"),
        by("Lucas", "gostei do terceiro. faz uma bio pro instagram com ele"),
    ),
    chat(
        u(
            "a partir de agora escreve-me sempre em português de portugal, nada de brasileiro. o 'você' e o 'estou fazendo' fazem-me muita confusão",
            e("instruction", "Portugal"),
        ),
        u("como se diz 'deadline' em bom português?"),
        u("prazo, claro. e 'feedback'?"),
    ),
    chat(
        u(
            "esse componente fica fazendo request infinito, ajuda\n\n```tsx\n'use client'\nimport { useEffect, useState } from 'react'\n\nexport default function Pedido({ id }: { id: string }) {\n  const [pedido, setPedido] = useState<any>(null)\n  const [filtros, setFiltros] = useState({ status: 'aberto' })\n\n  useEffect(() => {\n    fetch(`/api/pedidos/${id}?status=${filtros.status}`)\n      .then(r => r.json())\n      .then(data => {\n        setPedido(data)\n        setFiltros({ ...filtros })\n      })\n  }, [id, filtros])\n\n  if (!pedido) return <p>Carregando...</p>\n  return <div>{pedido.cliente} - {pedido.total}</div>\n}\n```"
        ),
        u("quero que só busque de novo quando o id mudar"),
        u("no trampo a gente usa next 14 com app router, muda algo?", e("environment", "Next")),
        u("show, entendi"),
    ),
    chat(
        u(
            "vivi 9 anos em genebra mas voltei para portugal em março e agora estou em aveiro. como peço o reembolso do 2º pilar?",
            e("fact", "Aveiro", forbid=("Genebra",)),
        ),
        u("tenho 41 anos, posso levantar tudo de uma vez?", e("identity", "41")),
        u("e depois tenho de pagar impostos cá sobre esse dinheiro?"),
        u("ok, vou marcar com um contabilista. obrigado pela paciência"),
    ),
    chat(
        u(
            "falo espanhol fluente e tô aprendendo alemão pelo duolingo, vc acha q dá pra chegar no B1 em um ano?",
            e("skill", "espanhol"),
            e("goal", "alem"),
        ),
        u("estudo uns 30 min por dia, às vezes menos"),
        u("monta um plano semanal pra mim, com podcast e série"),
    ),
    chat(
        u(
            "faz-me um resumo das regras do fora de jogo, o meu sobrinho perguntou e eu bloqueei lol"
        ),
        u(
            "eu joguei federado até aos 18 anos e agora só jogo futsal com os amigos às quintas, por isso devia saber isto",
            e("skill", "futsal"),
        ),
        u("dá-me um aquecimento de 15 min para antes do jogo, ando sempre com os gémeos presos"),
    ),
    chat(
        u("quem disse 'eu sou eu e minha circunstância'?"),
        u("e o que isso quer dizer na prática?"),
        u("interessante, a professora citou hoje na aula e ninguém entendeu nada"),
    ),
    chat(
        u(
            "preciso de responder a este email do meu chefe de forma educada mas firme:\n\n'Olá Pedro,\n\nPreciso que o relatório de vendas do Q3 esteja pronto até amanhã às 9h, com a comparação por loja e os gráficos que a administração pediu. Sei que é em cima da hora mas é crítico.\n\nObrigado,\nRicardo'",
            e("identity", "Pedro"),
        ),
        u("mais curto e sem pedir desculpa"),
        u(
            "estou na sonae há 3 anos e nunca me pediram uma coisa destas tão em cima da hora, quero que isso se perceba sem ser mal educado",
            e("fact", "Sonae"),
        ),
    ),
    chat(
        u("virei vegana em janeiro, me passa boas fontes de b12 e ferro", e("fact", "vegan")),
        u("não curto tofu, tem outras opções?", e("preference", "tofu")),
        u("monta um cardápio de 3 dias com isso"),
        u("pode trocar o almoço de terça? não tenho tempo de cozinhar nesse dia"),
    ),
    chat(
        u(
            "vivo em ponta delgada e quero abrir um pequeno negócio de observação de baleias, quais licenças preciso?",
            e("fact", "Ponta Delgada"),
            e("goal", "baleia"),
        ),
        u("o barco é de 8 metros, comprei-o usado o ano passado"),
        u("faz-me um plano de negócio resumido, uma página"),
        u("põe os custos numa tabela"),
    ),
    chat(
        u(
            "meu celular é um galaxy a54 e a bateria tá durando nada desde a última atualização, alguma dica?",
            e("environment", "A54"),
        ),
        u("já desativei o 5g e o always on display"),
        u("valeu, vou tentar limpar o cache"),
    ),
    chat(
        u(
            "revê esta carta de motivação por favor:\n\n'Exmos. Senhores,\n\nChamo-me Inês Carvalho, tenho 24 anos e concluí recentemente o mestrado em Bioquímica na Universidade do Minho. Venho por este meio candidatar-me à posição de Técnica de Laboratório, uma vez que sempre me interessei pela área de controlo de qualidade. Durante o meu estágio na Bial tive oportunidade de...'"
        ),
        u("está demasiado formal?"),
        u("tira o 'venho por este meio', odeio essa expressão"),
    ),
    group(
        ("Carla", "Diego", "Fê"),
        by("Carla", "gente vamos usar a IA pra dividir as contas do ap de uma vez por todas"),
        by(
            "Diego",
            "eu trabalho de casa então gasto mais luz, acho justo pagar um pouco mais",
            e("fact", "Diego", "casa", forbid=("usuario",)),
        ),
        by(
            "Fê", "eu só fico metade do mês, volto pra campinas toda semana pra cuidar da minha mãe"
        ),
        by("Carla", "a conta veio 480 de luz e 120 de internet. calcula aí uma divisão justa"),
        by(
            "Fê",
            "e eu sou intolerante a lactose, não quero dividir o leite do mercado kkk",
            e("fact", "Fê", "lactose", forbid=("usuario",)),
        ),
    ),
    chat(
        u(
            "quero fazer erasmus em praga no próximo ano letivo, tenho média de 14, chega?",
            e("goal", "Praga"),
        ),
        u("estou em gestão no iscte, 2º ano", e("fact", "gest")),
        u("escreve-me uma carta de motivação em inglês, curta, tipo 250 palavras"),
    ),
    chat(
        u("como faço procv no excel com duas condições?"),
        u("to no google sheets na vdd, esqueci de falar"),
        u("deu certo!! obrigadaaa"),
    ),
    chat(
        u("o meu pai faz 70 anos em dezembro, ideias de prenda? ele adora pesca e o benfica"),
        u("orçamento até 100€"),
        u("e um texto para o cartão, eu sou péssimo a escrever estas coisas"),
    ),
    chat(
        u(
            "larguei o pycharm e agora uso o cursor pra tudo, como importo meus atalhos?",
            e("environment", "Cursor", forbid=("PyCharm",)),
        ),
        u("tô num macbook m2", e("environment", "Mac")),
        u("show, deu boa"),
    ),
    chat(
        u(
            "boa noite. vou mudar-me para paris em janeiro para trabalhar como engenheiro de software na datadog, como abro conta bancária antes de chegar?",
            e("goal", "Paris"),
            e("fact", "Datadog"),
            e("identity", "engenheir"),
        ),
        u("a boursorama aceita não residentes?"),
        u("e quanto se paga por um studio no 11ème? quero ficar perto do escritório"),
    ),
    chat(
        u(
            "escreve uma redação dissertativa-argumentativa sobre mobilidade urbana no brasil, estilo enem"
        ),
        u("coloca mais argumentos com dados, tá muito genérica"),
        u("tá ótimo agora"),
    ),
    chat(
        u(
            "toco guitarra clássica há uns 15 anos mas nunca aprendi a ler bem pautas, sempre fui de ouvido. por onde começo?",
            e("skill", "guitarra"),
        ),
        u("e apps para treinar leitura, conheces alguma?"),
        u(
            "o meu objetivo é conseguir ler sozinho uma peça do tárrega até ao verão",
            e("goal", "Tarrega"),
        ),
    ),
    chat(
        u(
            "essa query tá demorando 40s, socorro:\n\nSELECT c.nome, COUNT(p.id) AS total_pedidos, SUM(p.valor) AS total\nFROM clientes c\nLEFT JOIN pedidos p ON p.cliente_id = c.id\nWHERE p.criado_em >= '2024-01-01'\n  AND LOWER(c.email) LIKE '%@gmail.com'\nGROUP BY c.nome\nORDER BY total DESC\nLIMIT 50;"
        ),
        u("é postgres 15, a tabela de pedidos tem uns 12 milhões de linhas"),
        u("criei o índice e caiu pra 200ms, vc é demais"),
    ),
    group(
        ("Rita", "Nuno"),
        by("Rita", "nuno pergunta aqui à ia quanto custa alugar um campo em matosinhos"),
        by(
            "Nuno",
            "quanto custa mais ou menos alugar um campo de futebol 7 em matosinhos à noite, uma hora?",
        ),
        by(
            "Rita",
            "e vê se é sintético, eu sou alérgica ao pólen e em relva natural passo o jogo a espirrar",
            e("fact", "Rita", "polen", forbid=("usuario",)),
        ),
        by(
            "Nuno",
            "já agora sou guarda-redes há mais de 10 anos e preciso de luvas novas, recomenda umas boas até 40€",
            e("skill", "Nuno", "guarda-redes", forbid=("usuario",)),
        ),
    ),
    chat(
        u(
            "meu namorado faz aniversário sábado e ele ama fotografia, alguma ideia de presente até 300 reais?",
            e("relationship", "namorado"),
        ),
        u("ele já tem uma canon com duas lentes"),
        u("gostei da segunda ideia, me ajuda a escrever um bilhete fofo mas sem ser brega"),
    ),
    chat(
        u(
            "a minha prima vive em toronto e jura que as rendas lá são piores que em lisboa, é verdade?"
        ),
        u("ela paga 2300 dólares canadianos por um T1 no centro"),
        u("e em lisboa quanto está um T1 agora em média? para comparar"),
    ),
    chat(
        u(
            "daqui pra frente me responde sempre com medidas no sistema métrico, nada de libras, pés e polegadas, odeio ter que converter",
            e("instruction", "metric"),
        ),
        u("quanto pesa um boeing 747 vazio?"),
        u("e quanto mede de uma asa à outra?"),
    ),
    chat(
        u(
            "sou contabilista numa pequena empresa em leiria e queria automatizar as reconciliações bancárias com python, por onde começo?",
            e("identity", "contabilist"),
            e("fact", "Leiria"),
        ),
        u("nunca escrevi uma linha de código na vida, aviso já"),
        u("no escritório usamos windows 11 e o excel para tudo", e("environment", "Windows")),
        u("ok, mostra-me um exemplo simples com pandas para ler o extrato do banco em csv"),
    ),
    chat(
        u("qual a diferença entre biscoito e bolacha kkkkk"),
        u(
            "sou mineira, de belo horizonte, e aqui é biscoito, óbvio",
            e("identity", "Belo Horizonte"),
        ),
        u("e pão de sal ou pão francês?"),
    ),
    chat(
        u(
            "estou a escrever a tese de mestrado sobre habitação estudantil no porto e preciso de ajuda para estruturar o capítulo 2, o da revisão de literatura",
            e("project", "habita"),
        ),
        u("o orientador quer no máximo 20 páginas neste capítulo"),
        u("podes pôr a estrutura numa tabela com secção, objetivo e nº de páginas?"),
        u("ótimo, obrigada"),
    ),
    chat(
        u(
            "traduz pra inglês esse email pro cliente:\n\nOlá Mark, tudo bem?\n\nConforme conversamos na call de ontem, eu vou estar de férias entre 10 e 24 de julho. Nesse período o Rodrigo vai assumir o projeto e pode ser contatado pelo e-mail rodrigo@agencia.com.br. Antes de sair eu deixo a versão 2 do layout aprovada e os arquivos no drive.\n\nQualquer coisa me avisa!\nAbraço,\nCamila"
        ),
        u("mais formal, ele é meio old school"),
        u("perfeito, valeu"),
    ),
    chat(
        u(
            "faço 30 anos para a semana e estou a entrar em pânico lol, ideias para uma festa pequena?",
            e("identity", "30"),
        ),
        u("somos uns 12, num sábado à tarde"),
        u("nada de karaoke por favor, detesto karaoke", e("preference", "karaoke")),
        u("gosto da ideia do piquenique, faz-me a lista do que levar"),
    ),
    chat(
        u(
            "sou dev backend há 8 anos, principalmente java e kotlin, mas quero migrar pra área de machine learning. vale a pena fazer mestrado?",
            e("skill", "Java"),
            e("goal", "machine learning"),
        ),
        u(
            "moro em floripa e não quero sair daqui de jeito nenhum, então tem que ser remoto ou na ufsc",
            e("fact", "Flori"),
        ),
        u("e cursos online, algum que valha a pena mesmo?"),
    ),
    chat(
        u(
            "o meu marido e eu estamos no luxemburgo há 3 anos e queremos comprar casa em portugal a pensar na reforma, compensa comprar já?",
            e("relationship", "marido"),
            e("fact", "Luxemburgo"),
        ),
        u("seria na zona de ponte de lima, somos de lá os dois", e("identity", "Ponte de Lima")),
        u("e o crédito, é melhor pedir num banco de lá ou de cá?"),
    ),
    chat(
        u(
            "resume esse texto em 5 bullets:\n\nAs ondas de calor no sul da Europa tornaram-se mais frequentes e intensas nas últimas duas décadas. Segundo dados da Agência Europeia do Ambiente, o número de dias com temperaturas acima de 40 °C em Portugal e Espanha mais que duplicou desde 2000. Os impactos incluem aumento da mortalidade entre idosos, perdas na agricultura, incêndios florestais de grandes dimensões e pressão sobre os sistemas de saúde. Especialistas defendem a criação de abrigos climáticos nas cidades, a revisão das normas de construção e planos de aviso precoce."
        ),
        u("agora em inglês"),
    ),
    chat(
        u(
            "recomenda-me séries parecidas com the bear, adoro séries passadas em cozinhas",
            e("preference", "cozinha"),
        ),
        u("já vi o chef's table todo e o boiling point"),
        u("nada de reality shows por favor, não suporto", e("preference", "reality")),
    ),
    chat(
        u(
            "to construindo um app de controle financeiro pra casais em flutter, como faço a sincronização offline?",
            e("project", "financ"),
            e("environment", "Flutter"),
        ),
        u("o backend é supabase"),
        u("manda um exemplo de código com drift"),
        u("o conflito de edição é o que mais me preocupa, se os dois editarem a mesma despesa"),
    ),
    group(
        ("Joana", "Miguel"),
        by(
            "Joana",
            "temos de entregar o trabalho de direito constitucional até segunda, bora despachar isto",
        ),
        by("Miguel", "eu faço a introdução, escrevo melhor que tu lol"),
        by(
            "Joana",
            "ok. e eu trabalho no pingo doce ao fim de semana por isso tenho de fazer a minha parte hoje",
            e("fact", "Joana", "Pingo Doce", forbid=("usuario",)),
        ),
        by(
            "Miguel",
            "ia, faz-nos um esquema do trabalho sobre o princípio da separação de poderes, com 4 partes",
        ),
        by("Joana", "e põe as referências em formato APA"),
    ),
    chat(
        u(
            "olá! vivo em paris há 20 anos, sou porteira num prédio no 16ème, e quero pedir a nacionalidade francesa sem perder a portuguesa. é possível ter as duas?",
            e("fact", "Paris"),
            e("identity", "porteir"),
        ),
        u("o meu francês oral é bom mas o teste TCF assusta-me um bocado"),
        u("dá-me umas frases típicas para a entrevista na préfecture, com tradução"),
        u("merci, és um amor"),
    ),
    chat(
        u(
            "btw mudei-me do porto para braga no mês passado, conheces bons ginásios perto da sé que não sejam caríssimos?",
            e("fact", "Braga", forbid=("Porto",)),
        ),
        u("treino crossfit há uns 4 anos, se houver box melhor ainda", e("skill", "crossfit")),
        u("e horários antes das 7h?"),
    ),
    chat(
        u(
            "I need help with this cover letter, mas responde em português pls. é para um estágio na farfetch"
        ),
        u(
            "'Dear Hiring Team, I am a final-year Design student at ESAD Matosinhos and I have always been passionate about fashion and e-commerce...'\n\nestá ok o início?"
        ),
        u("quero que soe mais confiante, menos 'I have always been passionate'"),
        u("ok agora ficou muito arrogante lol, meio termo"),
    ),
    chat(
        u(
            "tô montando um side project, um bot de telegram que avisa quando o ônibus tá chegando aqui em recife, dá pra pegar os dados da api do grande recife?",
            e("project", "telegram"),
            e("fact", "Recife"),
        ),
        u("to fazendo em python com aiogram"),
        u("e onde hospedo de graça?"),
    ),
    chat(
        u(
            "a minha avó fazia um arroz doce com casca de limão e canela em pau que nunca mais comi igual, sabes a receita tradicional minhota?"
        ),
        u("ela usava leite do dia e ovos caseiros"),
        u("quanto tempo de lume? da última vez pegou-se ao fundo"),
    ),
)
