# ruff: noqa: E501  (message texts are data: kept on one line each)
"""Blind held-out conversations of the extraction evaluation set (see README.md in this folder).

Written after the extractor had been tuned, without reading the extractor's rules, its
confidence model or the dev-only supplement, and never used for tuning: its figures are the
estimate on chats nobody tuned against. Ids `en-blind-*` and `pt-blind-*`, split `heldout`,
appended by `generate.py` after every other conversation.

The shape of a conversation is `turns.py`'s.
"""

from __future__ import annotations

from typing import Final

from turns import Conversation, by, chat, e, group, u

EN: Final[tuple[Conversation, ...]] = (
    chat(
        u(
            "hey can you help me write a cover letter for a junior data analyst job at a hospital network"
        ),
        u(
            "some background: I'm a pharmacist at the moment but I've been teaching myself SQL for about a year",
            e("identity", "pharmacist"),
            e("skill", "sql"),
        ),
        u("I want the letter to sound confident but not arrogant"),
        u("hmm I need the intro shorter, it's too much about me"),
        u(
            "I'm using the second version you gave. can you fix the last paragraph so it mentions Tableau?"
        ),
        u("perfect, thank you!!"),
    ),
    chat(
        u(
            "I want to become a nurse. I'm 34, is that too late to start?",
            e("goal", "nurse"),
            e("identity", "34"),
        ),
        u(
            "what are the steps in Ontario? I already have a biology degree",
            e("fact", "biology degree"),
        ),
        u("my mom worked nights as a nurse for 30 years and says it wrecked her sleep"),
        u(
            "Honestly I get queasy around needles, which is a bit of a problem lol",
            e("preference", "needles"),
        ),
        u("Give me a 12-month plan as a table please"),
    ),
    chat(
        u(
            "getting this when I run my script:\n\nTraceback (most recent call last):\n  File \"main.py\", line 14, in <module>\n    import pandas as pd\nModuleNotFoundError: No module named 'pandas'"
        ),
        u("I'm on Windows 11, python 3.12 from the microsoft store", e("environment", "windows")),
        u("I did pip install pandas and it said Successfully installed pandas-2.2.2"),
        u("still the same error. I'm running it with the play button in the editor"),
        u("that fixed it!! it was pointing at a different interpreter the whole time"),
    ),
    chat(
        u(
            "Act as a hiring manager at a big tech company and interview me for a product manager role. One question at a time."
        ),
        u(
            "Let's say I'm a candidate called Jordan who led a team of twelve at a logistics startup."
        ),
        u(
            "My answer: I once had to cut a feature two weeks before launch because legal flagged it, and I told the team the same day."
        ),
        u("ok stop the roleplay. how did I do? be brutal"),
        u(
            "For real though, I'm a backend developer and I'm trying to move into product management.",
            e("identity", "backend developer"),
            e("goal", "product manage"),
        ),
    ),
    chat(
        u(
            "Translate to Spanish: My name is Claire, I am a teacher and I live in Lyon with my two cats."
        ),
        u("now make it a bit more formal"),
        u("and in German?"),
        u(
            "thanks. I actually speak some German, I studied in Munich for two years",
            e("skill", "german"),
        ),
        u('Can you check this sentence for me: "Ich habe gestern mit meinem Chef gesprochen"'),
    ),
    chat(
        u("If I were a billionaire, what would be the most effective charity to fund?"),
        u(
            "Hypothetically, if I moved to Japan, how would taxes work for someone employed by a US company?"
        ),
        u("say I had three kids and a mortgage, would term life insurance make sense?"),
        u("just curious, none of that is my actual situation haha"),
        u(
            "what I do have is a grumpy old cat called Biscuit who is judging me right now",
            e("relationship", "cat", "biscuit"),
        ),
    ),
    chat(
        u('Who actually said "I think, therefore I am"? Was it Descartes in French or Latin?'),
        u(
            'My favourite line from any book is "Not all those who wander are lost". Where\'s it from exactly?',
            e("preference", "wander"),
        ),
        u(
            "Someone at work keeps quoting 'I love deadlines. I love the whooshing noise they make as they go by' — that's Douglas Adams right?"
        ),
        u('Write a short wedding toast that includes the line "I am large, I contain multitudes"'),
        u("ha, that's lovely"),
    ),
    chat(
        u("I want it in bullet points this time, not paragraphs"),
        u(
            'Summarize the attached meeting notes: "Q3 revenue up 4%. I will own the hiring plan - Marta. We need to cut AWS spend."'
        ),
        u("I need a version I can paste into Slack"),
        u("I prefer the shorter one"),
        u("Can you also draft a reply to Marta saying I'll review the hiring plan tomorrow?"),
    ),
    chat(
        u(
            "I've been vegan for about six years now, and my partner Sam just went vegan too",
            e("fact", "vegan"),
            e("relationship", "partner", "sam"),
        ),
        u("we're hosting 8 people on Saturday, none of them vegan. menu ideas?"),
        u("one of them is allergic to cashews, so no cashew cream"),
        u("I'm not a great cook tbh, keep it simple", e("skill", "cook")),
        u("love the mushroom wellington idea, let's go with that"),
    ),
    chat(
        u("Quick question: what's the difference between a Roth IRA and a traditional IRA?"),
        u("I'm 27 and I make about 70k a year", e("identity", "27"), e("fact", "70k")),
        u("My goal is to retire by 50, is that realistic?", e("goal", "retire")),
        u("what if I put 15% of my salary in every month?"),
        u("makes sense, thanks"),
    ),
    chat(
        u(
            "```js\nconst user = { name: 'Alex', city: 'Berlin' };\nconsole.log(user.age.toString());\n```\nTypeError: Cannot read properties of undefined (reading 'toString')"
        ),
        u("I know, I know, the age is missing. I want it to default to 0"),
        u("I'm more of a backend person, JavaScript always confuses me", e("skill", "backend")),
        u("is optional chaining supported in Node 14?"),
        u("great, we're stuck on 14 at work for now"),
    ),
    chat(
        u(
            "I work as a paramedic in Glasgow and I'm trying to get better at handling the stress",
            e("identity", "paramedic"),
            e("fact", "glasgow"),
        ),
        u("what are some breathing techniques I can do in the ambulance between calls?"),
        u("I tried box breathing last week and it kind of worked"),
        u("I also started journaling every night before bed", e("fact", "journal")),
        u("thanks, this is helpful"),
    ),
    chat(
        u(
            'Rewrite this bio in third person: "I\'m a landscape photographer based in Cornwall. I love foggy mornings and I shoot on film."'
        ),
        u("make it sound less cheesy"),
        u("it's for my friend's website, she's launching next week"),
        u("I want the last sentence removed"),
        u("ok good"),
    ),
    chat(
        u(
            "I used to live in Denver but I moved to Porto last spring for my wife's job",
            e("fact", "porto", forbid=("denver",)),
        ),
        u("what's the best way to learn European Portuguese rather than the Brazilian kind?"),
        u(
            "I'm learning Portuguese with Duolingo right now but it only teaches the Brazilian variant",
            e("goal", "portuguese"),
        ),
        u(
            "My wife Inês is from Porto so she helps me with pronunciation",
            e("relationship", "wife", "ines"),
        ),
        u("can you give me 10 phrases for the market?"),
    ),
    chat(
        u(
            "From now on, please always give me metric units. I'm in Europe.",
            e("instruction", "metric"),
        ),
        u("how many grams of flour is 2 cups?"),
        u("and 350F in celsius?"),
        u("I'm baking my grandmother's apple cake for my dad's birthday"),
        u("thank you, it turned out great"),
    ),
    chat(
        u(
            "You are a grumpy medieval innkeeper. I am a traveler who just walked in soaked from the rain. Stay in character."
        ),
        u(
            "*shakes off cloak* I'm a blacksmith from the northern villages and I need a room for two nights."
        ),
        u("I hate rats. Are there rats in this inn?"),
        u("*slides three silver coins across the counter*"),
        u("lol this is fun, let's continue tomorrow"),
    ),
    chat(
        u(
            "I'm a high school chemistry teacher and I need a lab safety quiz for 10th graders",
            e("identity", "chemistry teacher"),
        ),
        u("make it 15 multiple choice questions"),
        u("I want the answers at the end, not after each question"),
        u("can you also make a version for students with dyslexia? bigger spacing, simpler words"),
        u(
            "I teach in a really underfunded school so no fancy equipment in the questions please",
            e("fact", "underfunded"),
        ),
    ),
    chat(
        u("hi"),
        u("how's your day going"),
        u("mine's been rough, my flight got cancelled"),
        u("anyway, can you tell me a fun fact about octopuses?"),
        u("haha cool. good night"),
    ),
    chat(
        u(
            "I'm switching from Android to an iPhone 15 next week, what should I know about moving my WhatsApp chats?",
            e("environment", "iphone", forbid=("android",)),
        ),
        u("I have about 40 GB of photos on Google Photos"),
        u("I want to keep Google Photos as a backup though"),
        u("is there a way to keep my number the same?"),
    ),
    chat(
        u(
            'Here is the email I received:\n\n"Hi, I\'m the new landlord of your building. I live upstairs and I prefer tenants pay by check. Regards, Tom"\n\nIs this a scam?'
        ),
        u("He also asked for my bank details by text"),
        u("ok I'll call the agency first"),
        u("I've rented this flat for 6 years and never had a problem", e("fact", "rent")),
    ),
    chat(
        u(
            "I want to learn to play the cello. I've never played any instrument.",
            e("goal", "cello"),
        ),
        u("I'm left-handed, does that matter for string instruments?", e("fact", "left-handed")),
        u("what's a reasonable budget for a beginner cello?"),
        u("I'd like to practise mostly on weekends since I work long shifts"),
        u("cool, thanks!"),
    ),
    chat(
        u("Write a python function that checks if a string is a palindrome"),
        u("I want it recursive"),
        u("now add type hints and a docstring"),
        u("I'd like tests too, with pytest"),
        u(
            "I usually write Rust at work so I'm a bit rusty with Python idioms, pun intended",
            e("skill", "rust"),
        ),
        u("nice, that works"),
    ),
    chat(
        u(
            "I'm trying to decide between two job offers, one at a bank in London and one at a climate startup in Berlin"
        ),
        u("I care a lot more about meaningful work than money", e("preference", "meaningful work")),
        u("The bank pays 30% more though"),
        u("What would you do in my place?"),
        u("I'm going with the startup. I start in March!", e("fact", "startup")),
    ),
    chat(
        u(
            'Can you proofread this? "Me and my brother has been running the family bakery since 2015 and we bake everything by hand"'
        ),
        u("it's for the bakery website, it's my brother's thing, not mine"),
        u("I need the tone warmer"),
        u("ok I'll send it to him"),
    ),
    chat(
        u(
            "My husband Kenji and I are planning a trip to Iceland in February",
            e("relationship", "husband", "kenji"),
        ),
        u("I get really bad motion sickness, so no boat tours", e("fact", "motion sickness")),
        u("Kenji loves photography, he'd want to see the northern lights"),
        u("what's the best area to stay for 5 nights?"),
        u("I'd like a day-by-day itinerary"),
    ),
    chat(
        u("Pretend you're my therapist. I'm a 45-year-old accountant going through a divorce."),
        u("just kidding, I'm writing a screenplay and need realistic therapist dialogue"),
        u("the character is a woman named Ruth who just lost her job"),
        u("I want the therapist to be a little too honest, for comedy"),
        u(
            "I've been writing screenplays as a hobby for a couple of years",
            e("skill", "screenplay"),
        ),
    ),
    chat(
        u("what's the weather usually like in Lisbon in November?"),
        u("I'm thinking of going for a conference, not sure yet"),
        u("ok and is it easy to get from the airport to the center?"),
        u("I don't drive, so public transport only", e("fact", "drive")),
    ),
    chat(
        u(
            "I've stopped using Notion, I moved all my notes to Obsidian last month",
            e("environment", "obsidian", forbid=("notion",)),
        ),
        u("how do I set up daily notes with a template?"),
        u("I want the date in the title like 2025-03-14"),
        u('ugh it says "Template folder not found"'),
        u("found it, the folder name had a typo"),
    ),
    chat(
        u(
            "I'm running my first marathon in Chicago this October, my goal is to finish under 4 hours",
            e("goal", "marathon"),
        ),
        u("I'm currently running about 30 miles a week", e("fact", "30 miles")),
        u(
            "I have a knee injury from football in high school so I'm careful with hills",
            e("fact", "knee"),
        ),
        u("can you build me a 16-week plan?"),
        u("I need the long runs on Sundays"),
    ),
    chat(
        u("I'm putting together the deck for Monday's all-hands, can you suggest a structure?"),
        u(
            "I'm also working on a side project, a board game about beekeeping, if you have tips on playtesting",
            e("project", "board game"),
        ),
        u("I need the deck to stay under 8 slides"),
        u(
            "I want to learn to present without reading from my notes, honestly",
            e("goal", "present"),
        ),
        u("I'm learning a lot from this, thanks"),
    ),
    group(
        ("Maya", "Leo", "Priti"),
        by(
            "Maya",
            "ok team, we need to pick a date for the offsite. I'm free any week in May except the 12th.",
        ),
        by(
            "Leo",
            "I'm a vegetarian, so whatever place we pick needs real options, not just a salad",
            e("fact", "leo", "vegetarian", forbid=("user",)),
        ),
        by(
            "Priti",
            "I just moved to Manchester, so somewhere up north would be easier for me",
            e("fact", "priti", "manchester", forbid=("user",)),
        ),
        by(
            "Maya",
            "My daughter Zoe has her recital on the 20th so not that weekend",
            e("relationship", "maya", "daughter", "zoe", forbid=("user",)),
        ),
        by("Leo", "Assistant, can you suggest three venues near Leeds with a vegetarian menu?"),
        by("Priti", "I love the second one, the old mill looks great"),
    ),
    group(
        ("Tom", "Grace"),
        by("Tom", "Grace and I are writing a wedding speech for our friend Ben. Can you help?"),
        by("Grace", "Ben is a firefighter and loves terrible puns"),
        by(
            "Tom",
            "I've known Ben since we were six, we grew up on the same street in Cork",
            e("fact", "tom", "cork", forbid=("user",)),
        ),
        by(
            "Grace",
            "I'm terrible at public speaking, so keep my part short",
            e("skill", "grace", "public speaking", forbid=("user",)),
        ),
        by("Tom", "Make it under four minutes total"),
    ),
)

# -- Portuguese (Brazilian and European) -----------------------------------------------------

PT: Final[tuple[Conversation, ...]] = (
    chat(
        u("oi, me ajuda a escrever um e-mail pedindo aumento pro meu gestor?"),
        u(
            "Trabalho como analista de RH numa construtora faz três anos",
            e("identity", "analista de rh"),
        ),
        u("Quero que o tom seja firme mas educado"),
        u("preciso disso até amanhã cedo, a reunião é às 9"),
        u("ficou ótimo, só tira a última frase"),
    ),
    chat(
        u(
            "Quero aprender a tocar violão, mas tenho 52 anos. Ainda dá tempo?",
            e("goal", "violao"),
            e("identity", "52"),
        ),
        u("Nunca estudei música na vida"),
        u("Prefiro aprender MPB, Bossa Nova, essas coisas", e("preference", "bossa nova")),
        u("me passa um plano de estudos de 3 meses?"),
        u("valeu!"),
    ),
    chat(
        u(
            'Traduz para o inglês: "Sou engenheira civil, moro em Campinas e adoro cozinhar aos domingos."'
        ),
        u("agora deixa mais formal"),
        u("é para o LinkedIn da minha prima, ela está procurando emprego fora"),
        u("obrigado"),
    ),
    chat(
        u(
            "Estou com esse erro no Django:\n\ndjango.db.utils.OperationalError: no such table: core_pedido"
        ),
        u("já rodei o makemigrations"),
        u("ah, faltava o migrate. funcionou"),
        u(
            "Eu programo em Python há uns cinco anos mas Django é novo pra mim",
            e("skill", "python"),
        ),
        u("tem algum curso bom de Django em português?"),
    ),
    chat(
        u("Finge que você é um cliente irritado de uma operadora de telefone. Eu sou o atendente."),
        u("Boa tarde, meu nome é Carlos, em que posso ajudar?"),
        u("Entendo, senhor. Vou verificar a sua fatura agora mesmo."),
        u(
            "pode parar. isso é treino para o meu trabalho novo de atendimento, começo segunda",
            e("fact", "atendimento"),
        ),
        u("que dicas você me dá pra lidar com gente gritando?"),
    ),
    chat(
        u(
            "Sou enfermeira há doze anos e estou pensando em fazer mestrado em saúde pública",
            e("identity", "enfermeir", forbid=("usuario e enfermeira",)),
        ),
        u(
            "Moro em Recife, então queria algo que desse para fazer à distância",
            e("fact", "recife"),
        ),
        u("Quais universidades têm programa EAD bom?"),
        u("Quero a lista em tabela, com nota da CAPES"),
        u("show, obrigada"),
    ),
    chat(
        u("E se eu ganhasse na Mega-Sena, quanto de imposto eu pagaria?"),
        u("e se eu morasse em Portugal, mudaria alguma coisa?"),
        u("imagina que eu tenho 3 imóveis alugados, compensa abrir uma empresa?"),
        u("kkkk só sonhando mesmo, não tenho nem carro"),
    ),
    chat(
        u(
            "Olá! Estou a escrever a minha tese sobre a história do azulejo em Lisboa",
            e("project", "tese", "azulejo"),
        ),
        u(
            'Podes rever este parágrafo? "O azulejo chegou a Portugal no século XV, vindo de Sevilha."'
        ),
        u("Quero que fique mais académico"),
        u(
            "Sou de Braga mas vivo em Lisboa desde 2019",
            e("fact", "lisboa"),
            e("identity", "braga"),
        ),
        u("Obrigada, ficou muito melhor"),
    ),
    chat(
        u("Qual a diferença entre CDB e Tesouro Direto?"),
        u("Tenho 24 anos e acabei de conseguir meu primeiro emprego CLT", e("identity", "24")),
        u(
            "Meu objetivo é juntar uma reserva de emergência de seis meses até o fim do ano",
            e("goal", "reserva de emergencia"),
        ),
        u("quanto eu teria que guardar por mês ganhando 3.500?"),
        u("beleza, entendi"),
    ),
    chat(
        u(
            'Reescreve isso de forma mais educada: "Eu odeio quando as pessoas atrasam e eu não tolero reunião sem pauta."'
        ),
        u("é uma mensagem pro grupo do condomínio, eu sou o síndico"),
        u("tá, mas ainda ficou agressivo"),
        u("agora sim, perfeito"),
    ),
    chat(
        u(
            "Deixei de usar o Windows, agora estou no Linux Mint em casa",
            e("environment", "linux", forbid=("windows",)),
        ),
        u("como instalo o Steam?"),
        u("deu esse erro: E: Unable to locate package steam"),
        u("funcionou depois de ativar o multiverse. valeu"),
    ),
    chat(
        u(
            "Meu marido Rodrigo e eu queremos adotar um cachorro",
            e("relationship", "marido", "rodrigo"),
        ),
        u("Moramos em apartamento pequeno em Belo Horizonte", e("fact", "belo horizonte")),
        u("Qual raça é boa pra apartamento?"),
        u("O Rodrigo é alérgico a pelo de gato, com cachorro também pode dar problema?"),
        u("ok, vamos ver um vira-lata no abrigo então"),
    ),
    chat(
        u("Age como um professor de português e corrige a minha redação"),
        u(
            '"A tecnologia mudou a forma como nos comunicamos. Eu acho que as redes sociais aproximam quem está longe e afasta quem está perto."'
        ),
        u("quero só os erros, não reescreve tudo"),
        u("estou me preparando para o ENEM deste ano", e("goal", "enem")),
        u("vlw"),
    ),
    chat(
        u("bom dia"),
        u("tudo bem por aí?"),
        u("aqui tá um calor absurdo hoje"),
        u("me conta uma curiosidade sobre tubarões"),
        u("haha que doideira"),
    ),
    chat(
        u("Sou vegetariano desde os 15 anos", e("fact", "vegetarian")),
        u("Me dá uma receita de moqueca sem peixe"),
        u("Quero que sirva 6 pessoas"),
        u("não gosto de coentro, pode trocar por salsinha?", e("preference", "coentro")),
        u("ficou top, obrigado"),
    ),
    chat(
        u(
            'O meu chefe diz sempre "eu não quero saber de desculpas, quero resultados". Como é que lhe respondo sem perder o emprego?'
        ),
        u("Ele mora em Cascais e vem trabalhar de Porsche, para teres uma ideia"),
        u("Eu trabalho na parte de logística da empresa", e("fact", "logistica")),
        u("Preciso de uma resposta curta, que ele não lê e-mails longos"),
        u("perfeito"),
    ),
    chat(
        u(
            "Quero aprender a programar para mudar de carreira. Hoje sou professor de história",
            e("goal", "programar"),
            e("identity", "professor de historia"),
        ),
        u("Python ou JavaScript pra começar?"),
        u("Tenho umas duas horas por noite, depois que as crianças dormem"),
        u("Tenho duas filhas, a Alice de 4 anos e a Júlia de 7", e("relationship", "filha")),
        u("monta um cronograma pra mim?"),
    ),
    chat(
        u("Corrige este código:\n\n```python\nfor i in range(10)\n    print(i)\n```"),
        u("SyntaxError: expected ':'"),
        u("ah, faltou os dois pontos. que vergonha"),
        u("quero agora que imprima só os pares"),
    ),
    chat(
        u("Faz de conta que eu sou um turista americano perdido em Salvador e você é um guia"),
        u("Hi! I am John, I'm from Texas and I love barbecue. Where can I eat?"),
        u("kkk agora responde em português como se fosse o guia"),
        u(
            "sou guia de turismo de verdade, quero treinar meu inglês com isso",
            e("identity", "guia de turismo"),
            e("goal", "ingles"),
        ),
    ),
    chat(
        u(
            "Mudei de emprego: saí da Ambev e agora estou na Natura, na área de sustentabilidade",
            e("fact", "natura", forbid=("ambev",)),
        ),
        u("Preciso montar uma apresentação sobre economia circular para a diretoria"),
        u("Quero no máximo 10 slides"),
        u("Estou usando a segunda estrutura que você sugeriu"),
        u("pode detalhar o slide 4?"),
    ),
    chat(
        u("Olá, podes ajudar-me a planear uma viagem de comboio do Porto a Madrid?"),
        u("Vou com a minha namorada, a Rita, em agosto", e("relationship", "namorada", "rita")),
        u(
            "Não gosto nada de viajar de noite, por isso comboios noturnos não",
            e("preference", "noite"),
        ),
        u("E se fossemos de autocarro, era mais barato?"),
        u("Está bem, obrigado pela ajuda"),
    ),
    chat(
        u(
            'Resuma este texto em três tópicos:\n\n"Eu sou o presidente da associação e moro no bairro há 40 anos. Precisamos de mais iluminação na praça e de um posto de saúde."'
        ),
        u("quero em linguagem simples, vai pro grupo de WhatsApp"),
        u("tira o 'eu sou o presidente', não fui eu que escrevi"),
        u("beleza"),
    ),
    chat(
        u("Tenho diabetes tipo 2 e preciso de ideias de café da manhã", e("fact", "diabetes")),
        u("Não como nada com lactose", e("fact", "lactose")),
        u("pode ser em lista?"),
        u("Minha mãe também tem diabetes e mora comigo"),
        u("obrigada, vou testar amanhã"),
    ),
    chat(
        u(
            "Antes usava o Excel para tudo, mas agora faço as minhas análises no RStudio",
            e("environment", "rstudio", forbid=("excel",)),
        ),
        u("Como faço um gráfico de barras com ggplot2 agrupado por ano?"),
        u("dá este erro: Error in ggplot(dados, aes(x = ano)) : object 'dados' not found"),
        u("era o nome do data frame, já está"),
    ),
    chat(
        u(
            "Daqui pra frente, responde sempre em português de Portugal, por favor",
            e("instruction", "portugal"),
        ),
        u("como se diz 'celular' aí?"),
        u("e 'ônibus'?"),
        u(
            "Sou brasileira mas me mudo para Coimbra em setembro para o doutoramento",
            e("identity", "brasileir", forbid=("usuario e brasileira",)),
            e("goal", "coimbra"),
        ),
        u("obrigada!"),
    ),
    chat(
        u("se eu fosse presidente por um dia, o que daria pra mudar por decreto?"),
        u("e se eu fosse juiz do STF?"),
        u(
            "minha irmã acha que eu devia fazer direito, mas eu odeio ler lei",
            e("preference", "lei"),
        ),
        u("tá, chega de política kkk"),
    ),
    chat(
        u(
            "Estou a treinar para a minha primeira meia maratona, em Lisboa, em março",
            e("goal", "meia maratona"),
        ),
        u("Corro três vezes por semana, uns 8 km de cada vez", e("fact", "corre")),
        u("Tive uma tendinite no joelho no ano passado", e("fact", "tendinite")),
        u("Preciso do plano em semanas, numa tabela"),
        u("Obrigado"),
    ),
    chat(
        u(
            "Sou fotógrafo de casamentos em Florianópolis",
            e("identity", "fotograf"),
            e("fact", "florianopolis"),
        ),
        u("Escreve uma bio curta para o meu Instagram"),
        u("Quero algo mais descontraído, com emoji"),
        u("Uso uma Sony A7 III e lentes fixas", e("environment", "sony")),
        u("ficou massa"),
    ),
    chat(
        u("Me explica o que é juros compostos como se eu tivesse 10 anos"),
        u("agora um exemplo com 100 reais"),
        u("quero que você use a tabela de novo"),
        u("beleza, entendi finalmente"),
    ),
    chat(
        u("Estou fazendo os slides da reunião de sexta, me ajuda com a estrutura?"),
        u("Quero o texto mais enxuto, sem jargão"),
        u("Quero abrir uma padaria artesanal daqui a uns dois anos", e("goal", "padaria")),
        u("Estou aprendendo muito com essas respostas, sério"),
        u("Preciso disso até amanhã de manhã"),
    ),
    group(
        ("Joana", "Marcos", "Tiago"),
        by(
            "Joana",
            "Pessoal, vamos decidir o churrasco de sábado. Eu não como carne vermelha, então traz frango pra mim",
            e("preference", "joana", "carne vermelha", forbid=("usuario",)),
        ),
        by(
            "Marcos",
            "Eu moro em Niterói agora, então posso levar a carne de lá",
            e("fact", "marcos", "niteroi", forbid=("usuario",)),
        ),
        by(
            "Tiago",
            "Minha namorada Bia vai também, beleza?",
            e("relationship", "tiago", "namorada", "bia", forbid=("usuario",)),
        ),
        by("Joana", "Assistente, faz uma lista de compras pra 10 pessoas"),
        by(
            "Marcos",
            "coloca cerveja sem álcool também, eu parei de beber",
            e("fact", "marcos", "beber", forbid=("usuario",)),
        ),
        by("Tiago", "fechou"),
    ),
    group(
        ("Inês", "Duarte"),
        by("Inês", "Estamos a organizar a festa de anos da nossa mãe. Podes sugerir um menu?"),
        by(
            "Duarte",
            "Eu sou chef de cozinha, por isso posso tratar das sobremesas",
            e("identity", "duarte", "chef", forbid=("usuario",)),
        ),
        by(
            "Inês",
            "Eu vivo em Aveiro, a festa é lá em casa",
            e("fact", "ines", "aveiro", forbid=("usuario",)),
        ),
        by("Duarte", "A mãe adora bacalhau, tem de haver bacalhau"),
        by("Inês", "Quero o menu em lista, com quantidades para 20 pessoas"),
    ),
)
