# ruff: noqa: E501  (message texts are data: kept on one line each)
"""Dev-only realistic conversations (ids ``en-real-*``, ``pt-real-*``, split ``dev``).

Written by hand, after the blind held-out supplement and without reading it, in the shape of
real ChatGPT / Claude / Gemini exports: requests to the assistant, pasted text, code and error
messages, translation requests, role-play, hypotheticals, other people, chit-chat and group
conversations with named speakers, beside genuine self-disclosure (age, residence, origin, job,
employer, studies, family, pets, health and diet, languages, preferences, plans, skills and
changes over time) and first-person statements about the task at hand. English, Brazilian and
European Portuguese. Appended after every other conversation of the set, which stays byte for
byte as it was; used for tuning, like the rest of the dev split.

Each conversation is ``(participants, turns)``; each turn ``(speaker, text, expectations)`` as
in `templates.py` (``speaker`` is ``""`` in a one-person chat, which gets an assistant reply
after each turn).
"""

from __future__ import annotations

from typing import Final

from templates import NONE, Expect, e

Turn = tuple[str, str, tuple[Expect, ...]]
Conversation = tuple[tuple[str, ...], tuple[Turn, ...]]

EN: Final[tuple[Conversation, ...]] = (
    (
        (),
        (
            (
                "",
                "hey so I've been programming in Rust for about three years but I'm new to async, can you explain what Pin actually does?",
                (e("skill", "Rust"),),
            ),
            (
                "",
                "```rust\nlet fut = async { 1 };\nlet p = Box::pin(fut);\n```\nthis gives me error[E0277]: `dyn Future` cannot be unpinned",
                NONE,
            ),
            (
                "",
                "ok that makes sense. I work at a small logistics startup in Rotterdam, we ship a lot of embedded stuff",
                (e("fact", "logistics startup"),),
            ),
            ("", "I need the example to compile on stable, not nightly", NONE),
            ("", "thanks, that's perfect", NONE),
        ),
    ),
    (
        (),
        (
            (
                "",
                "Can you help me polish this cover letter for a data analyst role at Spotify?",
                NONE,
            ),
            (
                "",
                "Here it is:\nDear hiring team, I am a detail-oriented analyst with five years of experience in SQL and Tableau. I live in Stockholm and I love turning data into stories.",
                NONE,
            ),
            (
                "",
                "For real context, I'm actually 27 and I've only been using SQL for two years, so don't exaggerate",
                (e("identity", "27"), e("skill", "SQL")),
            ),
            ("", "make it shorter and less formal", NONE),
            ("", "I prefer the second paragraph the way it was", NONE),
        ),
    ),
    (
        (),
        (
            (
                "",
                "My wife Priya and I are expecting our first baby in March!",
                (e("relationship", "wife", "Priya"),),
            ),
            ("", "what are good names that work in both Hindi and English?", NONE),
            (
                "",
                "My mother-in-law wants us to name him after her father, Rajesh, but I'm not sure.",
                NONE,
            ),
            (
                "",
                "We live in Leicester, so something that's easy to say in the UK too",
                (e("fact", "Leicester"),),
            ),
            ("", "lol ok", NONE),
        ),
    ),
    (
        (),
        (
            (
                "",
                "I'm lactose intolerant and I'm trying to eat more protein. Give me a week of breakfasts.",
                (e("fact", "lactose"), e("goal", "protein")),
            ),
            ("", "no eggs please, I can't stand eggs", (e("preference", "eggs"),)),
            ("", "Can you also make a shopping list?", NONE),
            ("", "I go to the gym four times a week, mostly weightlifting", (e("fact", "gym"),)),
            ("", "perfect, thank you!", NONE),
        ),
    ),
    (
        (),
        (
            (
                "",
                "Translate to Spanish: Hi, I'm Tom, I live in Leeds and I work as a plumber.",
                NONE,
            ),
            ("", "Now in Portuguese please", NONE),
            (
                "",
                "By the way, I speak a bit of Spanish myself, I studied it in school, but my Portuguese is zero",
                (e("skill", "Spanish"),),
            ),
            ("", "Make it more casual", NONE),
        ),
    ),
    (
        (),
        (
            (
                "",
                "Let's play a game. You are a barista in Paris and I'm a tourist who only speaks English.",
                NONE,
            ),
            ("", "Bonjour! I'd like a croissant and an espresso please.", NONE),
            (
                "",
                "ok stop the game. Honestly I'm going to Paris for real in June and I'm learning French on Duolingo.",
                (e("goal", "Paris"), e("goal", "French")),
            ),
            ("", "ok let's continue the game", NONE),
        ),
    ),
    (
        (),
        (
            (
                "",
                "I'm a backend engineer at Zalando, mostly Java",
                (e("identity", "backend engineer"), e("fact", "works", "Zalando")),
            ),
            ("", "Write me a resignation email, short and polite.", NONE),
            (
                "",
                "Update: I accepted the offer and I'm joining Adyen in September",
                (e("fact", "Adyen"),),
            ),
            ("", "I'm nervous about the first week tbh", NONE),
            ("", "any tips for onboarding?", NONE),
        ),
    ),
    (
        (),
        (
            (
                "",
                "my dog Biscuit keeps barking at night, he's a 2 year old beagle. what can I do?",
                (e("relationship", "dog", "Biscuit"),),
            ),
            ("", "we live in a flat so it's a problem with the neighbours", NONE),
            ("", "I'm home most days so he's never alone for long", NONE),
            ("", "thanks I'll try the crate thing", NONE),
        ),
    ),
    (
        ("Maya", "Leo"),
        (
            (
                "Maya",
                "ok so for the trip, I'm vegan so no steakhouse please",
                (e("fact", "Maya", "vegan", forbid=("user",)),),
            ),
            ("Leo", "lol fine. I'll drive.", NONE),
            ("Maya", "Leo you live closer to the airport right?", NONE),
            (
                "Leo",
                "yeah I live in Hounslow, like 10 min away",
                (e("fact", "Leo", "Hounslow", forbid=("user",)),),
            ),
            ("Maya", "perfect. Ask the bot for a 3 day itinerary in Lisbon", NONE),
            (
                "Leo",
                "I speak Portuguese btw, my mum is from Porto",
                (e("skill", "Leo", "Portuguese", forbid=("user",)),),
            ),
        ),
    ),
    (
        (),
        (
            (
                "",
                "I'm a second-year medical student at King's College London",
                (e("identity", "medical student"),),
            ),
            ("", "explain the Krebs cycle like I'm tired and have an exam tomorrow", NONE),
            ("", "I have an exam tomorrow at 9 so keep it short", NONE),
            ("", "I want to specialise in paediatrics eventually", (e("goal", "paediatrics"),)),
            ("", "ok quiz me", NONE),
        ),
    ),
    (
        (),
        (
            (
                "",
                "I'm on Arch Linux with an AMD GPU and this happens when I launch steam:\nERROR: ld.so: object 'libgamemodeauto.so.0' from LD_PRELOAD cannot be preloaded",
                (e("environment", "Arch Linux"),),
            ),
            ("", "I already tried reinstalling gamemode", NONE),
            ("", "I use KDE Plasma if that matters", (e("environment", "KDE"),)),
            ("", "it worked!! thank you", NONE),
        ),
    ),
    (
        (),
        (
            ("", "If I were to move to Canada, would my UK driving licence still work?", NONE),
            ("", "My brother lives in Calgary and says it's fine but he's unreliable lol", NONE),
            ("", "Suppose I earned 60k CAD, what would tax be roughly?", NONE),
            (
                "",
                "I'm a nurse btw, if that changes anything for immigration",
                (e("identity", "nurse"),),
            ),
            ("", "ok thanks", NONE),
        ),
    ),
    (
        (),
        (
            (
                "",
                "I prefer answers without the long disclaimers, just give me the code.",
                (e("preference", "disclaimers"),),
            ),
            ("", "I want the function to return a dict, not a list", NONE),
            ("", "I like this version", NONE),
            (
                "",
                "I really like functional style in general, map and filter over loops",
                (e("preference", "functional"),),
            ),
            ("", "I want to add type hints too", NONE),
        ),
    ),
    (
        (),
        (
            (
                "",
                "A bit about me: I'm 41, I live in Galway, I work as a secondary school teacher and I've been teaching chemistry for fifteen years. I'm thinking of switching careers into software.",
                (
                    e("identity", "41"),
                    e("fact", "Galway"),
                    e("identity", "teacher"),
                    e("skill", "chemistry"),
                ),
            ),
            ("", "Which bootcamps would you recommend?", NONE),
            (
                "",
                "I know a bit of Python already, I did the CS50 course last year",
                (e("skill", "Python"),),
            ),
            ("", "I can't spend more than 5k on this", NONE),
            ("", "ok", NONE),
        ),
    ),
    (
        (),
        (
            ("", "I've played the piano since I was six, mostly classical", (e("skill", "piano"),)),
            ("", "Give me a practice plan for Chopin's Ballade No. 1", NONE),
            ("", "I hate practising scales honestly", (e("preference", "scales"),)),
            ("", "I also sing in a choir on Thursdays", (e("fact", "choir"),)),
            ("", "thanks, super helpful", NONE),
        ),
    ),
    (
        (),
        (
            (
                "",
                "Reply to this email for me:\n\nHi Sam, I'm the new office manager. I live nearby and I'm happy to help with the keys. Best, Jo",
                NONE,
            ),
            (
                "",
                "I'm Sam, obviously, and I'm the tenant on the second floor",
                (e("identity", "Sam"),),
            ),
            ("", "Keep it brief, I don't know Jo well", NONE),
            ("", "sign it Sam", NONE),
        ),
    ),
    (
        (),
        (
            ("", "I just moved to Denver from Chicago for a new job", (e("fact", "Denver"),)),
            ("", "What neighbourhoods are good for a cyclist?", NONE),
            ("", "I don't have a car and I don't want one", (e("fact", "car"),)),
            ("", "I bike to work every day", (e("fact", "bike"),)),
        ),
    ),
    (
        (),
        (
            (
                "",
                "My manager wrote 'I expect the report by Friday, no excuses' — how do I push back politely?",
                NONE,
            ),
            (
                "",
                "I'm a project manager so I know deadlines matter, but this one is unrealistic",
                (e("identity", "project manager"),),
            ),
            ("", "Draft a reply", NONE),
            ("", "Make it less passive aggressive lol", NONE),
        ),
    ),
    (
        (),
        (
            ("", "I want to run a marathon before I turn 40", (e("goal", "marathon"),)),
            (
                "",
                "I'm 36 now and I run about 20 km a week",
                (e("identity", "36"), e("fact", "20 km")),
            ),
            ("", "Build me a 16 week plan", NONE),
            ("", "I want the plan in a table", NONE),
            ("", "I'm also trying to lose some weight", (e("goal", "lose", "weight"),)),
        ),
    ),
    (
        (),
        (
            ("", "good morning!", NONE),
            ("", "I'm so bored today", NONE),
            ("", "tell me a fun fact about octopuses", NONE),
            (
                "",
                "haha I love octopuses, they're my favourite animal",
                (e("preference", "octopus"),),
            ),
            ("", "bye", NONE),
        ),
    ),
    (
        (),
        (
            (
                "",
                "```python\nprint('I live in a yellow submarine')\n```\nwhy does black reformat this?",
                NONE,
            ),
            (
                "",
                "I use Poetry for dependencies and VS Code as my editor",
                (e("environment", "Poetry"), e("environment", "VS Code")),
            ),
            ("", "I'm trying to get pre-commit to run black on save", NONE),
            ("", "nvm I figured it out", NONE),
        ),
    ),
    (
        (),
        (
            (
                "",
                "My husband Carlos is Colombian and I'm trying to learn Spanish to talk to his family",
                (e("relationship", "husband", "Carlos"), e("goal", "Spanish")),
            ),
            ("", "his mom only speaks Spanish and she's lovely", NONE),
            ("", "Give me 10 phrases for a family dinner", NONE),
            ("", "We have two kids, Mateo and Sofia", (e("relationship", "kids"),)),
        ),
    ),
    (
        (),
        (
            (
                "",
                "Write a short story where the narrator says: I am 90 years old and I live alone in a lighthouse.",
                NONE,
            ),
            (
                "",
                "I'm writing a fantasy novel, this is just a warm-up",
                (e("project", "fantasy novel"),),
            ),
            ("", "Make the narrator grumpier", NONE),
            (
                "",
                "I love Terry Pratchett, can you do it in his style?",
                (e("preference", "Pratchett"),),
            ),
        ),
    ),
    (
        ("Nina", "Omar", "Jess"),
        (
            ("Nina", "ok team, I'll book the room. Omar what do you need?", NONE),
            (
                "Omar",
                "I'm gluten free, so somewhere with options please",
                (e("fact", "Omar", "gluten", forbid=("user",)),),
            ),
            ("Jess", "I don't care, I eat anything lol", NONE),
            (
                "Nina",
                "I've been a vegetarian for ten years so I'd like at least one veggie main",
                (e("fact", "Nina", "vegetarian", forbid=("user",)),),
            ),
            ("Jess", "Bot, list 5 restaurants in Leeds that fit", NONE),
        ),
    ),
    (
        (),
        (
            (
                "",
                "I've been a professional photographer for eight years, mostly weddings",
                (e("identity", "photographer"),),
            ),
            ("", "I shoot on a Sony A7 IV", (e("environment", "Sony"),)),
            ("", "Help me write an Instagram bio", NONE),
            (
                "",
                "I know Lightroom really well but Photoshop not so much",
                (e("skill", "Lightroom"),),
            ),
            ("", "shorter", NONE),
        ),
    ),
    (
        (),
        (
            (
                "",
                "I'm 52 and I just started learning the guitar",
                (e("identity", "52"), e("goal", "guitar")),
            ),
            ("", "I have big hands, is a classical guitar a bad idea?", NONE),
            (
                "",
                "I want to be able to play some Beatles songs by Christmas",
                (e("goal", "Beatles"),),
            ),
            ("", "Show me the chords for Let It Be", NONE),
            ("", "I want them in a simpler key", NONE),
        ),
    ),
    (
        (),
        (
            (
                "",
                "I'm originally from Lagos but I've lived in Manchester for ten years",
                (e("identity", "Lagos"), e("fact", "Manchester")),
            ),
            ("", "I speak Yoruba and English at home", (e("skill", "Yoruba"),)),
            ("", "Help me write a toast for my cousin's wedding", NONE),
            ("", "She's a doctor and her husband is a pilot, include a joke about that", NONE),
            ("", "perfect", NONE),
        ),
    ),
    (
        (),
        (
            ("", "Fix this SQL: SELECT name FROM users WHERE age > 30 GROUP BY city", NONE),
            (
                "",
                "I'm a DBA at a hospital, we run Postgres 14",
                (e("identity", "DBA"), e("environment", "Postgres")),
            ),
            ("", "I need it to work on the reporting replica", NONE),
            ("", "I'm good with Postgres but Oracle is new to me", (e("skill", "Postgres"),)),
            ("", "great, thanks", NONE),
        ),
    ),
)

PT: Final[tuple[Conversation, ...]] = (
    (
        (),
        (
            (
                "",
                "Oi! Tenho 29 anos e sou enfermeira. Preciso de ajuda para montar um currículo.",
                (e("identity", "29"), e("identity", "enfermeir")),
            ),
            (
                "",
                "Aqui está o que eu tenho:\nExperiência: 5 anos em UTI. Sou dedicada e gosto de trabalhar em equipe.",
                NONE,
            ),
            ("", "deixa mais curto", NONE),
            ("", "Falo inglês fluente, pode colocar isso também", (e("skill", "ingles"),)),
            ("", "valeu!", NONE),
        ),
    ),
    (
        (),
        (
            (
                "",
                "Olá, vivo em Braga e trabalho numa empresa de software, a Primavera.",
                (e("fact", "Braga"), e("fact", "Primavera")),
            ),
            ("", "Preciso de um email para pedir férias ao meu chefe", NONE),
            (
                "",
                "Traduz para inglês: Estou de férias até dia 20 e não tenho acesso ao email.",
                NONE,
            ),
            ("", "Obrigado, ficou ótimo", NONE),
        ),
    ),
    (
        (),
        (
            (
                "",
                "Programo em Python há uns quatro anos, mas nunca mexi com asyncio direito",
                (e("skill", "Python"),),
            ),
            (
                "",
                "```python\nawait asyncio.sleep(1)\n```\nSyntaxError: 'await' outside function",
                NONE,
            ),
            (
                "",
                "Uso Linux no trabalho e Mac em casa",
                (e("environment", "Linux"), e("environment", "Mac")),
            ),
            ("", "pode explicar de novo com um exemplo mais simples?", NONE),
        ),
    ),
    (
        (),
        (
            (
                "",
                "Minha filha Alice faz 5 anos semana que vem, me ajuda a planejar a festa?",
                (e("relationship", "filha", "Alice"),),
            ),
            ("", "O tema vai ser dinossauros", NONE),
            ("", "Meu marido é alérgico a amendoim, então nada disso", NONE),
            ("", "Moramos em Curitiba, então pode sugerir lugares daqui", (e("fact", "Curitiba"),)),
        ),
    ),
    (
        (),
        (
            (
                "",
                "Sou vegano há três anos e quero ganhar massa muscular",
                (e("fact", "vegan"), e("goal", "massa muscular")),
            ),
            ("", "Monta uma dieta de 2500 kcal", NONE),
            ("", "Não gosto de tofu, tira isso", (e("preference", "tofu"),)),
            ("", "Quero a tabela em markdown", NONE),
        ),
    ),
    (
        (),
        (
            ("", "Finja que você é um entrevistador da Ambev e eu sou candidato a trainee", NONE),
            ("", "Pode começar a entrevista", NONE),
            (
                "",
                "Fim do roleplay. Na vida real estou no último ano de engenharia de produção",
                (e("fact", "engenharia de producao"),),
            ),
            ("", "me dá umas dicas pra dinâmica de grupo", NONE),
        ),
    ),
    (
        (),
        (
            (
                "",
                "Se eu me mudasse para Portugal, conseguiria trabalhar com visto de nômade digital?",
                NONE,
            ),
            ("", "Minha prima mora em Lisboa e diz que é fácil", NONE),
            (
                "",
                "Sou desenvolvedor front-end e trabalho remoto para uma empresa americana",
                (e("identity", "desenvolvedor"), e("environment", "remot")),
            ),
            ("", "Quanto eu pagaria de imposto?", NONE),
        ),
    ),
    (
        (),
        (
            (
                "",
                "Tenho uma gata chamada Mel, ela tem 12 anos e parou de comer ração",
                (e("relationship", "gata", "Mel"),),
            ),
            ("", "o que pode ser?", NONE),
            ("", "ela come sachê normalmente", NONE),
            ("", "brigada, vou levar na vet amanhã", NONE),
        ),
    ),
    (
        ("Rita", "João"),
        (
            (
                "Rita",
                "Então, para o jantar de sábado: eu não como carne, lembrem-se",
                (e("fact", "Rita", "carne", forbid=("usuario",)),),
            ),
            ("João", "Eu trato do vinho, percebo bastante disso", NONE),
            ("Rita", "Pergunta ao assistente uma receita de bacalhau sem bacalhau lol", NONE),
            (
                "João",
                "Eu moro em Setúbal, posso levar peixe fresco",
                (e("fact", "Joao", "Setubal", forbid=("usuario",)),),
            ),
            ("Rita", "boa!", NONE),
        ),
    ),
    (
        (),
        (
            ("", "Estou fazendo mestrado em linguística na Unicamp", (e("fact", "linguistica"),)),
            (
                "",
                "Me ajuda a resumir esse artigo:\nO presente estudo analisa a variação do português rural. Eu, enquanto pesquisadora, moro no campo há dez anos.",
                NONE,
            ),
            ("", "Resume em 3 tópicos", NONE),
            ("", "Quero publicar um artigo até o fim do ano", (e("goal", "artigo"),)),
        ),
    ),
    (
        (),
        (
            (
                "",
                "Trabalhava no Itaú mas agora estou no Nubank, como analista de risco",
                (e("fact", "Nubank", forbid=("itau",)), e("identity", "analista")),
            ),
            ("", "Me explica o que é PD, LGD e EAD", NONE),
            ("", "tô com dificuldade nessa parte de estatística bayesiana", NONE),
            ("", "valeu", NONE),
        ),
    ),
    (
        (),
        (
            (
                "",
                "Falo português e inglês e estou aprendendo alemão",
                (e("skill", "ingles"), e("goal", "alemao")),
            ),
            ("", "Me corrige esse texto em alemão: Ich bin Lehrer und wohne in Berlin.", NONE),
            (
                "",
                "Sou professor de história, na verdade, não de alemão kkk",
                (e("identity", "professor"),),
            ),
            ("", "Dá mais exemplos", NONE),
        ),
    ),
    (
        (),
        (
            ("", "bom dia!", NONE),
            ("", "tô cansada hoje", NONE),
            ("", "conta uma piada", NONE),
            ("", "kkkk adorei", NONE),
            ("", "Adoro piadas ruins, sério", (e("preference", "piadas"),)),
        ),
    ),
    (
        (),
        (
            ("", "Tenho asma desde criança, é seguro correr no frio?", (e("fact", "asma"),)),
            ("", "Corro três vezes por semana", (e("fact", "corre"),)),
            ("", "Quero fazer uma meia maratona ano que vem", (e("goal", "meia maratona"),)),
            ("", "ok, obrigado", NONE),
        ),
    ),
    (
        (),
        (
            (
                "",
                "Por que isso não funciona?\n```js\n// eu moro em SP e trabalho na XP\nconsole.log(user.name)\n```",
                NONE,
            ),
            ("", "Uso Node 20 e TypeScript", (e("environment", "Node"),)),
            ("", "Quero que a função retorne uma Promise", NONE),
            ("", "resolveu, obrigada", NONE),
        ),
    ),
    (
        (),
        (
            ("", "Mudei-me para o Porto no mês passado", (e("fact", "Porto"),)),
            ("", "Que bairros são bons para quem tem filhos pequenos?", NONE),
            ("", "Tenho dois filhos, de 3 e 6 anos", (e("relationship", "filhos"),)),
            ("", "Trabalho em Matosinhos, por isso algo perto", (e("fact", "Matosinhos"),)),
        ),
    ),
    (
        (),
        (
            ("", "Traduza para o inglês: Meu nome é Júlia, tenho 34 anos e moro em Recife.", NONE),
            ("", "agora para o espanhol", NONE),
            ("", "Obrigada!", NONE),
            ("", "Ah, e meu nome é Júlia mesmo", (e("identity", "Julia"),)),
        ),
    ),
    (
        (),
        (
            (
                "",
                "Prefiro respostas curtas e diretas, sem enrolação",
                (e("preference", "respostas curtas"),),
            ),
            (
                "",
                "Quero que você reescreva isso de forma mais direta:\nEu gosto muito de trabalhar com pessoas e sou apaixonado por tecnologia.",
                NONE,
            ),
            ("", "Gosto mais dessa segunda versão", NONE),
            ("", "Gosto muito de música clássica, aliás", (e("preference", "musica classica"),)),
        ),
    ),
    (
        ("Bia", "Rafa", "Duda"),
        (
            (
                "Bia",
                "gente, eu tenho 30 anos e nunca fui pra Europa, bora?",
                (e("identity", "Bia", "30", forbid=("usuario",)),),
            ),
            (
                "Rafa",
                "eu topo! falo italiano, então Itália seria fácil",
                (e("skill", "Rafa", "italiano", forbid=("usuario",)),),
            ),
            ("Duda", "o Rafa fala italiano mesmo, a mãe dele é de Milão", NONE),
            ("Bia", "pede pro bot um roteiro de 10 dias", NONE),
            (
                "Duda",
                "eu sou de Fortaleza, então voo de lá",
                (e("identity", "Duda", "Fortaleza", forbid=("usuario",)),),
            ),
        ),
    ),
    (
        (),
        (
            (
                "",
                "Estou desenvolvendo um app de controle de gastos em Flutter",
                (e("project", "app"),),
            ),
            ("", "Me dá ideias de nome", NONE),
            (
                "",
                "Estou tentando fazer o build para iOS e dá erro:\nError: CocoaPods not installed.",
                NONE,
            ),
            ("", "Sei programar em Dart e Kotlin, mas Swift não", (e("skill", "Dart", "Kotlin"),)),
        ),
    ),
    (
        (),
        (
            ("", "Sei tocar piano e violão, mas faz anos que não toco", (e("skill", "piano"),)),
            ("", "Quais músicas fáceis eu poderia tocar pra voltar?", NONE),
            ("", "Gosto de MPB e bossa nova", (e("preference", "MPB"),)),
            ("", "Pode ser em cifra", NONE),
        ),
    ),
    (
        (),
        (
            ("", "Meu chefe é muito exigente e vive dizendo 'eu quero isso pra ontem'", NONE),
            ("", "Como eu lido com isso?", NONE),
            ("", "Trabalho como designer gráfico há sete anos", (e("identity", "designer"),)),
            ("", "Quero mudar de emprego até o fim do ano", (e("goal", "emprego"),)),
        ),
    ),
    (
        (),
        (
            ("", "Dá-me uma receita de arroz de pato para seis pessoas", NONE),
            ("", "Sou celíaca, por isso nada de glúten", (e("fact", "celiac"),)),
            ("", "O forno está avariado hoje, só tenho o fogão", NONE),
            ("", "Obrigada, ficou ótimo", NONE),
        ),
    ),
    (
        (),
        (
            (
                "",
                "Tenho 45 anos, sou de Manaus e moro em São Paulo há vinte anos.",
                (e("identity", "45"), e("identity", "Manaus"), e("fact", "Sao Paulo")),
            ),
            ("", "Me ajuda a escrever uma mensagem de aniversário para minha mãe", NONE),
            ("", "Ela faz 70 anos e adora orquídeas", NONE),
            ("", "Deixa mais emocionante", NONE),
        ),
    ),
    (
        (),
        (
            ("", "Comecei a aprender japonês mês passado", (e("goal", "japones"),)),
            ("", "Como eu digo 'eu moro no Brasil' em japonês?", NONE),
            ("", "Não uso mais o Windows, mudei para o Ubuntu", (e("environment", "Ubuntu"),)),
            ("", "Gosto de animes desde criança", (e("preference", "anime"),)),
        ),
    ),
    (
        (),
        (
            (
                "",
                "Sou de Lisboa mas vivo em Londres há três anos",
                (e("identity", "Lisboa"), e("fact", "Londres")),
            ),
            ("", "Trabalho como enfermeiro no NHS", (e("identity", "enfermeir"),)),
            ("", "Preciso de ajuda com uma carta para a Ordem dos Enfermeiros", NONE),
            ("", "Escreve de forma formal, por favor", NONE),
            ("", "Obrigado!", NONE),
        ),
    ),
    (
        (),
        (
            (
                "",
                "Tenho um cachorro chamado Thor e ele morre de medo de fogos",
                (e("relationship", "cachorro", "Thor"),),
            ),
            ("", "O que posso fazer no Réveillon?", NONE),
            ("", "Moro em apartamento em Niterói, então não tem quintal", (e("fact", "Niteroi"),)),
            ("", "Vou testar, valeu", NONE),
            (
                "",
                "Sou veterinária, aliás, mas de grandes animais kkk",
                (e("identity", "veterinari"),),
            ),
        ),
    ),
    (
        (),
        (
            (
                "",
                "Corrige esse parágrafo: Eu sou muito proativo e tenho facilidade com Excel avançado.",
                NONE,
            ),
            (
                "",
                "Na real eu mexo com Excel avançado todo dia, sou analista financeiro",
                (e("skill", "Excel"), e("identity", "analista financeiro")),
            ),
            ("", "Quero aprender Power BI esse ano", (e("goal", "Power BI"),)),
            ("", "Me passa um plano de estudos", NONE),
            ("", "top", NONE),
        ),
    ),
)
