"""Hand-written material for the labeled recall set (`recallgen.py`): people, slot values,
life events with the questions they answer, distractor lines and everyday exchanges, in
English and Portuguese.

An event is something the person tells the assistant in one turn (`say`). Its questions:

- `fact`: the person's fact or preference, asked in roughly the words of the turn;
- `para`: the same, asked in other words (synonyms, inflections, a description instead of
  the word) so that it shares few or no content words with the answering turn;
- `when`: when it happened — the answer is the date of that one turn;
- `two`: a question whose answer needs the turn and a later one (`later`), neither enough
  alone.

`distract` lines share the event's words but answer none of its questions (someone else's
news, a plan that did not happen). Slot names in braces come from `SLOTS`; a slot written
with a `2` suffix is a second, different value of the same slot (for distractors).
"""

from __future__ import annotations

from typing import Any

# ---------------------------------------------------------------------------------------------
# People
# ---------------------------------------------------------------------------------------------

PEOPLE: dict[str, list[str]] = {
    "en": [
        "Emily Carter",
        "Marcus Reed",
        "Priya Nair",
        "Tom Becker",
        "Hannah O'Connell",
        "Daniel Okafor",
        "Sophie Turner",
        "Liam Walsh",
        "Grace Kim",
        "Oliver Hughes",
        "Chloe Martin",
        "Ethan Brooks",
        "Amelia Clarke",
    ],
    "pt": [
        "Mariana Souza",
        "João Pereira",
        "Luísa Gonçalves",
        "Rafael Conceição",
        "Beatriz Araújo",
        "Tiago Magalhães",
        "Camila Fernandes",
        "André Simões",
        "Inês Carvalho",
        "Lucas Antunes",
        "Larissa Brandão",
        "Gonçalo Ribeiro",
        "Débora Lopes",
    ],
}

TITLES: dict[str, list[str]] = {
    "en": [
        "Everyday help",
        "Life admin",
        "Notes and plans",
        "Weekly check-in",
        "Random questions",
        "Planning stuff",
        "Ongoing chat",
    ],
    "pt": [
        "Ajuda do dia a dia",
        "Planos e anotações",
        "Conversa da semana",
        "Perguntas soltas",
        "Organização pessoal",
        "Papo contínuo",
    ],
}

GREETINGS: dict[str, list[str]] = {
    "en": [
        "Hi, I'm {first}. I'll probably use this chat for all sorts of things.",
        "Hello! {first} here. Can I ask you a few things over the next weeks?",
    ],
    "pt": [
        "Oi, eu sou {first}. Vou usar esta conversa para um monte de coisas.",
        "Olá! Aqui é {first}. Posso te perguntar algumas coisas nas próximas semanas?",
    ],
}

GREETING_REPLIES: dict[str, list[str]] = {
    "en": ["Nice to meet you, {first}! Ask me anything, whenever you like."],
    "pt": ["Prazer, {first}! Pode perguntar o que quiser, quando quiser."],
}

RETURNS: dict[str, list[str]] = {
    "en": [
        "Hey, me again.",
        "Back again with a couple of things.",
        "Good morning!",
        "Hi again, it's been a while.",
        "Quick one tonight.",
    ],
    "pt": [
        "Oi, sou eu de novo.",
        "Voltei com mais umas coisas.",
        "Bom dia!",
        "Olá de novo, faz tempo.",
        "Rapidinho hoje à noite.",
    ],
}

RETURN_REPLIES: dict[str, list[str]] = {
    "en": ["Welcome back! What's on your mind?", "Hi! Go ahead.", "Good to see you. Shoot."],
    "pt": ["Que bom te ver de volta! O que foi?", "Oi! Pode falar.", "Olá! Manda ver."],
}

# ---------------------------------------------------------------------------------------------
# Slot values: each slot is a list of alternatives; an alternative is a dict of the names it
# fills (so a pet fills both {pet} and {petshort}).
# ---------------------------------------------------------------------------------------------


def _one(name: str, values: list[str]) -> list[dict[str, str]]:
    return [{name: v} for v in values]


SLOTS: dict[str, dict[str, list[dict[str, str]]]] = {
    "en": {
        "pet": [
            {"pet": "beagle puppy", "petshort": "puppy"},
            {"pet": "grey tabby kitten", "petshort": "kitten"},
            {"pet": "retired greyhound", "petshort": "greyhound"},
            {"pet": "pair of budgies", "petshort": "budgies"},
            {"pet": "lop-eared rabbit", "petshort": "rabbit"},
            {"pet": "black Labrador", "petshort": "Labrador"},
            {"pet": "ginger cat", "petshort": "cat"},
        ],
        "petname": _one(
            "petname",
            ["Biscuit", "Pepper", "Juniper", "Waffles", "Mochi", "Banjo", "Clementine", "Otis"],
        ),
        "city": _one(
            "city",
            [
                "Leeds",
                "Denver",
                "Toronto",
                "Edinburgh",
                "Austin",
                "Portland",
                "Dublin",
                "Melbourne",
                "Bristol",
                "Halifax",
                "Wellington",
                "Pittsburgh",
            ],
        ),
        "job": [
            {"job": "data analyst", "company": "Northwind Logistics"},
            {"job": "pediatric nurse", "company": "St. Mary's Hospital"},
            {"job": "UX designer", "company": "Brightleaf Studio"},
            {"job": "secondary school maths teacher", "company": "Riverside Academy"},
            {"job": "structural engineer", "company": "Arden & Cole"},
            {"job": "junior accountant", "company": "Fairbank Partners"},
            {"job": "software developer", "company": "Quillware"},
            {"job": "pastry chef", "company": "The Copper Whisk"},
        ],
        "boss": _one(
            "boss",
            [
                "Rachel Dunn",
                "Victor Hale",
                "Nadia Petrova",
                "Simon Ashby",
                "Megan Foster",
                "Curtis Lamb",
            ],
        ),
        "friend": _one(
            "friend", ["Jess", "Ravi", "Kate", "Ben", "Aisha", "Noah", "Ellie", "Sam", "Mia"]
        ),
        "instrument": _one(
            "instrument", ["piano", "cello", "violin", "saxophone", "classical guitar", "drums"]
        ),
        "teacher": _one(
            "teacher", ["Mrs. Whitfield", "Mr. Alvarez", "Ms. Baptiste", "Mr. Lindqvist"]
        ),
        "diet": [
            {"diet": "vegetarian", "dietfree": "meat-free"},
            {"diet": "pescatarian", "dietfree": "without red meat or poultry"},
            {"diet": "lactose intolerant", "dietfree": "dairy-free"},
            {"diet": "coeliac", "dietfree": "gluten-free"},
        ],
        "food": _one(
            "food",
            [
                "mushroom risotto",
                "pad thai with tofu",
                "shakshuka",
                "spinach and ricotta cannelloni",
                "sweet potato curry",
                "falafel wraps",
                "butternut squash soup",
            ],
        ),
        "hobby": [
            {
                "hobby": "pottery",
                "feat": "My first bowl came out of the kiln today, lopsided but it holds soup.",
            },
            {
                "hobby": "bouldering",
                "feat": "I finally topped the purple V4 at the gym after a month of trying.",
            },
            {"hobby": "chess", "feat": "I won my first rated game at the club on Tuesday."},
            {
                "hobby": "watercolour painting",
                "feat": "A café down the road agreed to hang two of my seascapes.",
            },
            {
                "hobby": "trail running",
                "feat": "I finished the 15 km forest race in under two hours.",
            },
            {
                "hobby": "sourdough baking",
                "feat": "My starter finally made a loaf with a proper open crumb.",
            },
            {
                "hobby": "birdwatching",
                "feat": "I spotted a kingfisher by the canal at dawn, unreal colours.",
            },
            {
                "hobby": "woodworking",
                "feat": "I built a small oak bookshelf for the hallway, no wobble at all.",
            },
        ],
        "dest": [
            {"dest": "Japan", "highlight": "night market in Osaka"},
            {"dest": "Iceland", "highlight": "glacier hike near Vík"},
            {"dest": "Portugal", "highlight": "tram ride up to the Alfama"},
            {"dest": "Morocco", "highlight": "night in the desert camp"},
            {"dest": "Peru", "highlight": "sunrise over Machu Picchu"},
            {"dest": "Norway", "highlight": "ferry through the fjords"},
            {"dest": "Vietnam", "highlight": "cooking class in Hoi An"},
        ],
        "month": _one("month", ["March", "April", "June", "September", "October", "November"]),
        "sibling": [
            {"sibling": "Laura", "sibjob": "vet", "sibcity": "Glasgow"},
            {"sibling": "Nina", "sibjob": "airline pilot", "sibcity": "Chicago"},
            {"sibling": "Rose", "sibjob": "physiotherapist", "sibcity": "Cardiff"},
            {"sibling": "Jade", "sibjob": "court interpreter", "sibcity": "Montreal"},
            {"sibling": "Holly", "sibjob": "marine biologist", "sibcity": "Brisbane"},
        ],
        "bday": _one(
            "bday", ["3 February", "19 March", "7 May", "28 July", "11 September", "30 November"]
        ),
        "sport": _one(
            "sport",
            ["five-a-side football", "netball", "badminton", "basketball", "tennis", "volleyball"],
        ),
        "vehicle": [
            {"vehicle": "Honda Civic", "colour": "dark blue"},
            {"vehicle": "Vespa scooter", "colour": "mint green"},
            {"vehicle": "Toyota Yaris", "colour": "silver"},
            {"vehicle": "Volvo estate", "colour": "white"},
            {"vehicle": "camper van", "colour": "orange"},
        ],
        "exam": _one(
            "exam",
            ["driving", "CFA level one", "IELTS", "bar", "nursing licence", "AWS certification"],
        ),
        "allergen": _one(
            "allergen", ["peanuts", "shellfish", "penicillin", "cats", "kiwi", "bee stings"]
        ),
        "coffee": [
            {"coffee": "as a flat white with oat milk", "cafe": "oat flat white"},
            {"coffee": "black, no sugar, a double espresso", "cafe": "double espresso"},
            {"coffee": "iced with a splash of vanilla", "cafe": "vanilla iced coffee"},
            {"coffee": "as a decaf cappuccino", "cafe": "decaf cappuccino"},
        ],
        "book": _one(
            "book",
            [
                "The Remains of the Day",
                "Station Eleven",
                "Piranesi",
                "The Overstory",
                "Klara and the Sun",
                "Never Let Me Go",
                "Pachinko",
            ],
        ),
        "date": _one("date", ["14 June", "2 August", "21 September", "9 October", "6 December"]),
        "lang": [
            {"lang": "Italian", "tutor": "Giulia"},
            {"lang": "Japanese", "tutor": "Haruto"},
            {"lang": "Spanish", "tutor": "Lucía"},
            {"lang": "German", "tutor": "Jonas"},
            {"lang": "Korean", "tutor": "Min-ji"},
        ],
        "place": _one(
            "place",
            [
                "animal shelter",
                "food bank",
                "community library",
                "hospice café",
                "youth sports club",
            ],
        ),
        "field": _one(
            "field", ["accounting", "retail management", "law", "IT support", "journalism"]
        ),
        "team": _one(
            "team",
            [
                "Leeds United",
                "the Boston Celtics",
                "Celtic",
                "the Chicago Cubs",
                "Arsenal",
                "the Toronto Raptors",
            ],
        ),
        "plant": _one(
            "plant",
            ["cherry tomatoes", "basil and mint", "strawberries", "chilli peppers", "sunflowers"],
        ),
        "nephew": [
            {"nephew": "Finn", "age": "five"},
            {"nephew": "Leo", "age": "seven"},
            {"nephew": "Arlo", "age": "three"},
            {"nephew": "Max", "age": "ten"},
        ],
    },
    "pt": {
        "pet": [
            {"pet": "filhote de beagle", "petshort": "filhote"},
            {"pet": "gatinho cinza rajado", "petshort": "gatinho"},
            {"pet": "galgo aposentado", "petshort": "galgo"},
            {"pet": "casal de periquitos", "petshort": "casal de periquitos"},
            {"pet": "coelho de orelhas caídas", "petshort": "coelho"},
            {"pet": "labrador preto", "petshort": "labrador"},
            {"pet": "vira-lata caramelo", "petshort": "vira-lata"},
        ],
        "petname": _one(
            "petname", ["Paçoca", "Pipoca", "Farofa", "Tião", "Jabuti", "Canjica", "Bolota", "Zeca"]
        ),
        "city": _one(
            "city",
            [
                "Florianópolis",
                "Belo Horizonte",
                "Curitiba",
                "Coimbra",
                "Braga",
                "Recife",
                "Porto Alegre",
                "Maceió",
                "Évora",
                "Niterói",
                "Salvador",
                "Goiânia",
            ],
        ),
        "job": [
            {"job": "analista de dados", "company": "Transportes Ipê"},
            {"job": "enfermeira pediátrica", "company": "Santa Casa"},
            {"job": "designer de interfaces", "company": "Estúdio Jabuticaba"},
            {"job": "professor de matemática", "company": "Escola Estadual Anísio Teixeira"},
            {"job": "engenheira civil", "company": "Construtora Alvorada"},
            {"job": "contador júnior", "company": "Moreira & Associados"},
            {"job": "desenvolvedor de software", "company": "Tucano Sistemas"},
            {"job": "confeiteira", "company": "Doceria Brigadeiro de Ouro"},
        ],
        "boss": _one(
            "boss",
            [
                "Patrícia Nogueira",
                "Sérgio Vasconcelos",
                "Aline Barros",
                "Márcio Teles",
                "Fernanda Quintão",
                "Otávio Rezende",
            ],
        ),
        "friend": _one(
            "friend", ["Júlia", "Caio", "Bia", "Renato", "Letícia", "Davi", "Helena", "Igor"]
        ),
        "instrument": _one(
            "instrument",
            [
                "piano",
                "violoncelo",
                "violino",
                "saxofone",
                "violão clássico",
                "bateria",
                "cavaquinho",
            ],
        ),
        "teacher": _one(
            "teacher",
            ["o professor Álvaro", "a professora Cecília", "o maestro Jorge", "a professora Rúbia"],
        ),
        "diet": [
            {"diet": "vegetariana", "dietfree": "sem carne"},
            {"diet": "pescetariana", "dietfree": "sem carne vermelha nem frango"},
            {"diet": "sem lactose", "dietfree": "sem leite e derivados"},
            {"diet": "celíaca", "dietfree": "sem glúten"},
        ],
        "food": _one(
            "food",
            [
                "moqueca de banana-da-terra",
                "risoto de cogumelos",
                "pão de queijo",
                "escondidinho de mandioca",
                "feijão tropeiro sem bacon",
                "bolinho de chuva",
                "caldo verde",
            ],
        ),
        "hobby": [
            {
                "hobby": "cerâmica",
                "feat": "Minha primeira tigela saiu do forno hoje, torta mas segura sopa.",
            },
            {
                "hobby": "escalada",
                "feat": "Finalmente completei a via roxa de nível quatro no "
                "ginásio depois de um mês tentando.",
            },
            {
                "hobby": "xadrez",
                "feat": "Ganhei minha primeira partida valendo rating no clube na terça.",
            },
            {
                "hobby": "aquarela",
                "feat": "Uma cafeteria aqui perto aceitou expor duas das minhas marinhas.",
            },
            {
                "hobby": "corrida de trilha",
                "feat": "Completei a prova de 15 km na mata em menos de duas horas.",
            },
            {
                "hobby": "pão de fermentação natural",
                "feat": "Meu levain finalmente deu um pão com miolo bem aerado.",
            },
            {
                "hobby": "observação de aves",
                "feat": "Vi um martim-pescador na beira do rio ao amanhecer, que cores!",
            },
            {
                "hobby": "marcenaria",
                "feat": "Montei uma estante pequena de peroba para o corredor, sem balançar nada.",
            },
        ],
        "dest": [
            {"dest": "Japão", "highlight": "mercado noturno de Osaka"},
            {"dest": "Islândia", "highlight": "caminhada na geleira perto de Vík"},
            {"dest": "Chile", "highlight": "deserto do Atacama à noite"},
            {"dest": "Marrocos", "highlight": "noite no acampamento do deserto"},
            {"dest": "Peru", "highlight": "nascer do sol em Machu Picchu"},
            {"dest": "Noruega", "highlight": "balsa pelos fiordes"},
            {"dest": "Itália", "highlight": "aula de massa fresca em Bolonha"},
        ],
        "month": _one("month", ["março", "abril", "junho", "setembro", "outubro", "novembro"]),
        "sibling": [
            {"sibling": "Paula", "sibjob": "veterinária", "sibcity": "Campinas"},
            {"sibling": "Nathália", "sibjob": "piloto de avião", "sibcity": "Manaus"},
            {"sibling": "Rosana", "sibjob": "fisioterapeuta", "sibcity": "Lisboa"},
            {"sibling": "Joana", "sibjob": "intérprete judicial", "sibcity": "Montreal"},
            {"sibling": "Sílvia", "sibjob": "bióloga marinha", "sibcity": "Ubatuba"},
        ],
        "bday": _one(
            "bday",
            [
                "3 de fevereiro",
                "19 de março",
                "7 de maio",
                "28 de julho",
                "11 de setembro",
                "30 de novembro",
            ],
        ),
        "sport": _one(
            "sport", ["futsal", "vôlei de praia", "handebol", "basquete", "tênis", "futevôlei"]
        ),
        "vehicle": [
            {"vehicle": "Fiat Uno", "colour": "vermelho"},
            {"vehicle": "Honda Civic", "colour": "azul-marinho"},
            {"vehicle": "Fusca", "colour": "verde-claro"},
            {"vehicle": "Corolla", "colour": "prata"},
            {"vehicle": "jipe", "colour": "branco"},
        ],
        "exam": _one(
            "exam",
            [
                "direção",
                "proficiência em inglês",
                "OAB",
                "residência médica",
                "certificação AWS",
                "mestrado",
            ],
        ),
        "allergen": _one(
            "allergen",
            ["amendoim", "camarão", "penicilina", "pelo de gato", "kiwi", "picada de abelha"],
        ),
        "coffee": [
            {"coffee": "com leite de aveia, sem açúcar", "cafe": "café com leite de aveia"},
            {"coffee": "puro e bem forte, espresso duplo", "cafe": "espresso duplo"},
            {"coffee": "gelado com um pouquinho de baunilha", "cafe": "café gelado de baunilha"},
            {"coffee": "descafeinado, tipo cappuccino", "cafe": "cappuccino descafeinado"},
        ],
        "book": _one(
            "book",
            [
                "Torto Arado",
                "Dom Casmurro",
                "Ensaio sobre a Cegueira",
                "A Hora da Estrela",
                "Grande Sertão: Veredas",
                "O Avesso da Pele",
                "Capitães da Areia",
            ],
        ),
        "date": _one(
            "date",
            ["14 de junho", "2 de agosto", "21 de setembro", "9 de outubro", "6 de dezembro"],
        ),
        "lang": [
            {"lang": "italiano", "tutor": "Giulia"},
            {"lang": "japonês", "tutor": "Haruto"},
            {"lang": "espanhol", "tutor": "Lucía"},
            {"lang": "alemão", "tutor": "Jonas"},
            {"lang": "francês", "tutor": "Amélie"},
        ],
        "place": _one(
            "place",
            [
                "abrigo de animais",
                "banco de alimentos",
                "biblioteca comunitária",
                "asilo do bairro",
                "projeto social de futebol",
            ],
        ),
        "field": _one(
            "field", ["contabilidade", "gestão de varejo", "direito", "suporte de TI", "jornalismo"]
        ),
        "team": _one(
            "team", ["Flamengo", "Corinthians", "Atlético Mineiro", "Grêmio", "Bahia", "Benfica"]
        ),
        "plant": _one(
            "plant",
            [
                "tomate-cereja",
                "manjericão e hortelã",
                "morangos",
                "pimenta dedo-de-moça",
                "girassóis",
            ],
        ),
        "nephew": [
            {"nephew": "Théo", "age": "cinco"},
            {"nephew": "Bento", "age": "sete"},
            {"nephew": "Heitor", "age": "três"},
            {"nephew": "Miguel", "age": "dez"},
        ],
    },
}

# ---------------------------------------------------------------------------------------------
# Events
# ---------------------------------------------------------------------------------------------

EVENTS: list[dict[str, Any]] = [
    {
        "key": "adopt_pet",
        "slots": ["pet", "petname"],
        "en": {
            "say": [
                "Big news: we adopted a {pet} yesterday! We named it {petname}.",
                "So we did it, we adopted a {pet} this weekend. {petname} is the name.",
            ],
            "reply": [
                "Congratulations on the new family member! The first weeks are all about "
                "routine: regular feeding times, a quiet corner to retreat to, and lots "
                "of patience."
            ],
            "fact": "What is the name of {name}'s {petshort}?",
            "para": "What did {first} call the animal companion brought home from the shelter?",
            "when": "When did {name} adopt the {petshort}?",
            "later": "{petname} chewed through my headphone cable this morning, so I had to "
            "order a new pair.",
            "two": "What did {name}'s {petshort} ruin?",
            "distract": [
                "My neighbour wants to adopt a {pet2} too, but the landlord said no pets.",
                "Do you think a {pet2} would suit a small flat? Just curious, not "
                "planning anything.",
            ],
        },
        "pt": {
            "say": [
                "Novidade: adotamos um {pet} ontem! Vai se chamar {petname}.",
                "Pronto, adotamos um {pet} neste fim de semana. O nome é {petname}.",
            ],
            "reply": [
                "Parabéns pelo novo membro da família! As primeiras semanas são de rotina: "
                "horários fixos de comida, um cantinho tranquilo e muita paciência."
            ],
            "fact": "Como se chama o {petshort} de {name}?",
            "para": "Qual foi o apelido escolhido por {first} para o bichinho levado para casa?",
            "when": "Quando {name} adotou o {petshort}?",
            "later": "{petname} roeu o cabo do meu fone hoje de manhã, tive que comprar outro.",
            "two": "O que o {petshort} de {name} estragou?",
            "distract": [
                "Meu vizinho também quer adotar um {pet2}, mas o condomínio não deixa.",
                "Você acha que um {pet2} se adapta a apartamento pequeno? Só curiosidade.",
            ],
        },
    },
    {
        "key": "move_city",
        "slots": ["city"],
        "en": {
            "say": [
                "We finally moved to {city} last weekend, there are boxes everywhere.",
                "Writing from {city}! The move went fine, the van arrived on Saturday.",
            ],
            "reply": [
                "Moving is exhausting. Unpack the kitchen and the bed first, and give "
                "yourself a week before judging the new place."
            ],
            "fact": "Which city did {name} move to?",
            "para": "Where is {first} living these days after relocating?",
            "when": "When did {name} move to {city}?",
            "distract": [
                "My brother moved to {city2} last year and keeps saying I should visit.",
                "Is {city2} expensive to live in? A colleague is thinking of moving there.",
            ],
        },
        "pt": {
            "say": [
                "Finalmente nos mudamos para {city} no fim de semana passado, tem caixa "
                "por todo lado.",
                "Escrevendo de {city}! A mudança deu certo, o caminhão chegou no sábado.",
            ],
            "reply": [
                "Mudança cansa muito. Desempacote primeiro a cozinha e a cama, e dê uma "
                "semana antes de julgar o lugar novo."
            ],
            "fact": "Para qual cidade {name} se mudou?",
            "para": "Onde {first} passou a morar agora?",
            "when": "Quando {name} se mudou para {city}?",
            "distract": [
                "Meu irmão se mudou para {city2} no ano passado e vive dizendo que eu "
                "devia visitar.",
                "O custo de vida em {city2} é alto? Um colega está pensando em se mudar para lá.",
            ],
        },
    },
    {
        "key": "new_job",
        "slots": ["job", "boss", "friend"],
        "en": {
            "say": [
                "I start my new job as a {job} at {company} on Monday, wish me luck!",
                "Got the offer! I'll be working as a {job} at {company} from next week.",
            ],
            "reply": [
                "Congratulations! In the first weeks, ask lots of questions, write down "
                "names and find out how your work will be judged."
            ],
            "fact": "What is {name}'s new job?",
            "para": "What position was {first} hired for, and by which employer?",
            "when": "When did {name} get the {job} position?",
            "later": "My manager at work, {boss}, asked me to lead the quarterly report, "
            "which is scary.",
            "two": "Who is {name}'s boss at {company}?",
            "distract": [
                "My friend {friend} is interviewing for a {job2} job, fingers crossed for them.",
                "What does a {job2} actually do all day? Someone asked me at dinner.",
            ],
        },
        "pt": {
            "say": [
                "Começo no novo emprego como {job} na {company} na segunda-feira, torce por mim!",
                "Recebi a proposta! Vou trabalhar como {job} na {company} a partir da "
                "semana que vem.",
            ],
            "reply": [
                "Parabéns! Nas primeiras semanas, pergunte bastante, anote os nomes e "
                "descubra como o seu trabalho vai ser avaliado."
            ],
            "fact": "Qual é o novo emprego de {name}?",
            "para": "Que cargo {first} assumiu e em qual firma?",
            "when": "Quando {name} conseguiu a vaga de {job}?",
            "later": "Minha gestora no trabalho, {boss}, pediu que eu cuidasse do relatório "
            "trimestral, que medo.",
            "two": "Quem chefia {name} na {company}?",
            "distract": [
                "Meu amigo {friend} está fazendo entrevistas para {job2}, tomara que dê certo.",
                "O que faz um {job2} no dia a dia? Me perguntaram num jantar.",
            ],
        },
    },
    {
        "key": "instrument",
        "slots": ["instrument", "teacher"],
        "en": {
            "say": [
                "I signed up for {instrument} lessons, and my first one was tonight!",
                "Okay, I finally started learning the {instrument}. First lesson done.",
            ],
            "reply": [
                "That's wonderful. Short daily practice beats one long session a week; "
                "fifteen focused minutes is plenty at the start."
            ],
            "fact": "What instrument is {name} learning?",
            "para": "Which kind of music course did {first} enrol in?",
            "when": "When was {name}'s first {instrument} lesson?",
            "later": "{teacher} says I'm ready to play a short piece at the spring recital.",
            "two": "Who teaches {name} the {instrument}?",
            "distract": [
                "A colleague of mine plays the {instrument2} in a jazz band, they're quite good.",
                "Is the {instrument2} harder than the {instrument}? Just wondering.",
            ],
        },
        "pt": {
            "say": [
                "Me inscrevi em aulas de {instrument}, e a primeira foi hoje à noite!",
                "Enfim comecei a aprender {instrument}. Primeira aula feita.",
            ],
            "reply": [
                "Que ótimo. Praticar um pouco todo dia rende mais que uma sessão longa "
                "por semana; quinze minutos concentrados bastam no começo."
            ],
            "fact": "Que instrumento {name} está aprendendo?",
            "para": "{first} começou a estudar música em qual curso?",
            "when": "Quando foi a primeira aula de {instrument} de {name}?",
            "later": "{teacher} disse que já posso tocar uma peça curta na apresentação de "
            "fim de ano.",
            "two": "Quem dá aula de {instrument} para {name}?",
            "distract": [
                "Um colega de trabalho toca {instrument2} numa banda de jazz, é bem bom.",
                "{instrument2} é mais difícil que {instrument}? Só curiosidade.",
            ],
        },
    },
    {
        "key": "diet",
        "slots": ["diet"],
        "en": {
            "say": [
                "I should mention I'm {diet}, so please keep any recipes {dietfree}.",
                "Quick note for future suggestions: I'm {diet}, so {dietfree} only.",
            ],
            "reply": ["Noted! I'll keep that in mind for every recipe and meal idea from now on."],
            "fact": "What dietary restriction does {name} have?",
            "para": "Which foods should be left out when suggesting meals to {first}?",
            "distract": [
                "At the office party nobody else was {diet2}, the buffet was a "
                "nightmare for my colleague.",
                "Is it true that being {diet2} makes it hard to get enough protein?",
            ],
        },
        "pt": {
            "say": [
                "Só lembrando que sou {diet}, então receitas {dietfree}, por favor.",
                "Um aviso para as próximas sugestões: sou {diet}, só coisas {dietfree}.",
            ],
            "reply": [
                "Anotado! Vou levar isso em conta em todas as receitas e ideias de "
                "refeição daqui para frente."
            ],
            "fact": "Que restrição alimentar {name} tem?",
            "para": "O que deve ficar de fora ao sugerir pratos para {first}?",
            "distract": [
                "Na festa do escritório ninguém mais era {diet2}, o bufê foi um "
                "pesadelo para a Carla.",
                "É verdade que quem é {diet2} tem dificuldade de comer proteína suficiente?",
            ],
        },
    },
    {
        "key": "favourite_food",
        "slots": ["food"],
        "en": {
            "say": [
                "Honestly nothing beats {food}, I could eat it every single week.",
                "If I could only have one meal forever it would be {food}.",
            ],
            "reply": [
                "Good choice! It also keeps well, so a double batch gives you lunch for "
                "the next day."
            ],
            "fact": "What is {name}'s favourite food?",
            "para": "Which dish does {first} never get tired of?",
            "distract": [
                "My flatmate made {food2} last night and it was far too salty.",
                "Can you freeze {food2}? Asking for a friend who cooked way too much.",
            ],
        },
        "pt": {
            "say": [
                "Sinceramente, nada supera {food}, eu comeria toda semana.",
                "Se eu pudesse comer um prato só para sempre, seria {food}.",
            ],
            "reply": [
                "Boa escolha! E rende bem: fazendo o dobro, já fica o almoço do dia seguinte."
            ],
            "fact": "Qual é a comida favorita de {name}?",
            "para": "De que prato {first} nunca enjoa?",
            "distract": [
                "Minha colega de apartamento fez {food2} ontem e ficou salgado demais.",
                "Dá para congelar {food2}? Pergunta de uma amiga que fez comida demais.",
            ],
        },
    },
    {
        "key": "hobby",
        "slots": ["hobby"],
        "en": {
            "say": [
                "I've been getting into {hobby} on weekends, it really clears my head.",
                "New thing in my life: {hobby}. Spent all of Saturday on it.",
            ],
            "reply": [
                "Love that. Hobbies with your hands or your feet are great at switching "
                "the brain off; keep it low-pressure."
            ],
            "fact": "What hobby did {name} pick up?",
            "para": "How does {first} like to unwind on Saturdays and Sundays?",
            "when": "When did {name} start doing {hobby}?",
            "later": "{feat}",
            "two": "What was {name}'s first achievement in {hobby}?",
            "distract": [
                "My cousin tried {hobby2} once and hated it, too fiddly for her.",
                "Is {hobby2} an expensive hobby to start? Just browsing ideas.",
            ],
        },
        "pt": {
            "say": [
                "Comecei a praticar {hobby} nos fins de semana, me ajuda muito a desligar.",
                "Novidade na minha vida: {hobby}. Passei o sábado inteiro nisso.",
            ],
            "reply": [
                "Adorei. Atividades com as mãos ou com o corpo ajudam muito a desligar "
                "a cabeça; mantenha sem pressão."
            ],
            "fact": "Qual hobby {name} começou?",
            "para": "O que {first} faz para relaxar aos sábados e domingos?",
            "when": "Quando {name} começou com {hobby}?",
            "later": "{feat}",
            "two": "Qual foi a primeira conquista de {name} em {hobby}?",
            "distract": [
                "Minha prima tentou {hobby2} uma vez e detestou, achou chato demais.",
                "{hobby2} é um hobby caro para começar? Só pesquisando ideias.",
            ],
        },
    },
    {
        "key": "trip",
        "slots": ["dest", "month"],
        "en": {
            "say": [
                "We just booked flights to {dest} for {month}, my first time there!",
                "Tickets are bought: {dest} in {month}! Never been, so excited.",
            ],
            "reply": [
                "How exciting! Book the first and last nights near the airport and keep "
                "the middle of the trip flexible."
            ],
            "fact": "Where is {name} travelling in {month}?",
            "para": "Which country has {first} never visited but is now going to?",
            "when": "When did {name} book the trip to {dest}?",
            "later": "Back home! The {highlight} was the best part of the whole trip.",
            "two": "What did {name} enjoy most during the {month} holiday?",
            "distract": [
                "My parents went to {dest2} for their anniversary and didn't like the food.",
                "Is {dest2} worth it in {month}? A friend is considering it.",
            ],
        },
        "pt": {
            "say": [
                "Acabamos de comprar as passagens para {dest} em {month}, vai ser minha "
                "primeira vez lá!",
                "Passagens compradas: {dest} em {month}! Nunca fui, que ansiedade boa.",
            ],
            "reply": [
                "Que emoção! Reserve a primeira e a última noite perto do aeroporto e "
                "deixe o meio da viagem flexível."
            ],
            "fact": "Para onde {name} vai viajar em {month}?",
            "para": "Que país {first} nunca conheceu e agora vai visitar?",
            "when": "Quando {name} comprou as passagens para {dest}?",
            "later": "Voltei! O {highlight} foi a melhor parte da viagem inteira.",
            "two": "Do que {name} mais gostou nas férias de {month}?",
            "distract": [
                "Meus pais foram para {dest2} no aniversário de casamento e não "
                "gostaram da comida.",
                "Vale a pena ir para {dest2} em {month}? Uma amiga está pensando.",
            ],
        },
    },
    {
        "key": "sibling",
        "slots": ["sibling"],
        "en": {
            "say": [
                "My sister {sibling} is a {sibjob} in {sibcity}; she comes over every Christmas."
            ],
            "reply": [
                "That sounds like a lovely tradition. Christmas visits are a good anchor "
                "when family lives far away."
            ],
            "fact": "What does {name}'s sister do for a living?",
            "para": "What is the occupation of {first}'s sibling?",
            "distract": [
                "A friend's sister just became a {sibjob2}, the training took years.",
                "Would a {sibjob2} earn well in {sibcity2}? Someone asked me.",
            ],
        },
        "pt": {
            "say": ["Minha irmã {sibling} é {sibjob} em {sibcity}; ela vem todo Natal para cá."],
            "reply": [
                "Que tradição bonita. A visita de fim de ano ajuda muito quando a família "
                "mora longe."
            ],
            "fact": "Qual é a profissão da irmã de {name}?",
            "para": "Com o que trabalha a parente de {first} que mora longe?",
            "distract": [
                "A irmã de uma amiga virou {sibjob2}, a formação levou anos.",
                "Um {sibjob2} ganha bem em {sibcity2}? Me perguntaram.",
            ],
        },
    },
    {
        "key": "birthday",
        "slots": ["bday"],
        "en": {
            "say": ["My birthday is on {bday}, I'm thinking of a small dinner with friends."],
            "reply": [
                "A small dinner is perfect. Pick a place that takes reservations for "
                "groups and send the invitation two weeks ahead."
            ],
            "fact": "When is {name}'s birthday?",
            "para": "On which day of the year was {first} born?",
            "distract": [
                "My friend's birthday is on {bday2} and I still have no idea what to get her."
            ],
        },
        "pt": {
            "say": ["Meu aniversário é dia {bday}, estou pensando num jantar pequeno com amigos."],
            "reply": [
                "Um jantar pequeno é perfeito. Escolha um lugar que aceite reserva para "
                "grupo e mande o convite com duas semanas de antecedência."
            ],
            "fact": "Quando é o aniversário de {name}?",
            "para": "Em que dia do ano {first} nasceu?",
            "distract": [
                "O aniversário de uma amiga é dia {bday2} e ainda não sei o que dar para ela."
            ],
        },
    },
    {
        "key": "injury",
        "slots": ["sport"],
        "en": {
            "say": ["I sprained my ankle playing {sport} yesterday, so no running for a while."],
            "reply": [
                "Ouch. Rest, ice, compression and elevation for the first two days, and "
                "see a doctor if you can't put weight on it."
            ],
            "fact": "What injury did {name} get?",
            "para": "How did {first} get hurt?",
            "when": "When did {name} sprain an ankle?",
            "distract": [
                "The physio said lots of people twist a knee in {sport2}, it's common.",
                "Which warm-up stops ankle sprains in {sport2}? Asking for my team.",
            ],
        },
        "pt": {
            "say": ["Torci o tornozelo jogando {sport} ontem, nada de corrida por um tempo."],
            "reply": [
                "Ai. Repouso, gelo, compressão e perna para cima nos dois primeiros dias; "
                "procure um médico se não conseguir apoiar o pé."
            ],
            "fact": "Que lesão {name} sofreu?",
            "para": "Como {first} se machucou?",
            "when": "Quando {name} torceu o tornozelo?",
            "distract": [
                "O fisioterapeuta disse que muita gente machuca o joelho no {sport2}.",
                "Que aquecimento evita entorse no {sport2}? Pergunta para o meu time.",
            ],
        },
    },
    {
        "key": "vehicle",
        "slots": ["vehicle"],
        "en": {
            "say": ["I bought a used {vehicle} today, it's {colour} and runs great."],
            "reply": [
                "Nice! Check the tyres and the service history, and book an oil change "
                "soon so you know where you stand."
            ],
            "fact": "What vehicle did {name} buy?",
            "para": "What did {first} purchase second-hand?",
            "when": "When did {name} buy the {vehicle}?",
            "distract": [
                "My uncle is selling his {vehicle2}, but I think it's overpriced.",
                "Is a {vehicle2} cheap to insure? A friend wants one.",
            ],
        },
        "pt": {
            "say": ["Comprei um {vehicle} usado hoje, é {colour} e está andando muito bem."],
            "reply": [
                "Que legal! Confira os pneus e o histórico de revisões, e marque uma troca "
                "de óleo logo para saber como ele está."
            ],
            "fact": "Que veículo {name} comprou?",
            "para": "O que {first} adquiriu de segunda mão?",
            "when": "Quando {name} comprou o {vehicle}?",
            "distract": [
                "Meu tio está vendendo o {vehicle2} dele, mas acho que está caro.",
                "O seguro de um {vehicle2} é barato? Um amigo quer um.",
            ],
        },
    },
    {
        "key": "exam",
        "slots": ["exam"],
        "en": {
            "say": ["I passed my {exam} exam this morning!! Still shaking."],
            "reply": [
                "Congratulations, that's a huge milestone! Celebrate properly before "
                "thinking about what comes next."
            ],
            "fact": "Which exam did {name} pass?",
            "para": "What test did {first} get through successfully?",
            "when": "When did {name} pass the {exam} exam?",
            "distract": [
                "My flatmate failed her {exam2} exam again, she's gutted.",
                "How long should someone study for the {exam2} exam?",
            ],
        },
        "pt": {
            "say": ["Passei na prova de {exam} hoje de manhã!! Ainda estou tremendo."],
            "reply": [
                "Parabéns, é uma conquista enorme! Comemore bastante antes de pensar no "
                "próximo passo."
            ],
            "fact": "Em qual prova {name} passou?",
            "para": "Qual exame {first} conseguiu vencer?",
            "when": "Quando {name} passou na prova de {exam}?",
            "distract": [
                "Minha colega de apartamento reprovou de novo na prova de {exam2}.",
                "Quanto tempo alguém deve estudar para a prova de {exam2}?",
            ],
        },
    },
    {
        "key": "allergy",
        "slots": ["allergen"],
        "en": {
            "say": ["Heads up, I'm allergic to {allergen}; I found out the hard way last year."],
            "reply": [
                "Thanks for telling me, I'll keep it in mind. Do carry whatever your "
                "doctor prescribed for emergencies."
            ],
            "fact": "What is {name} allergic to?",
            "para": "Which substance gives {first} a bad reaction?",
            "distract": [
                "My coworker thinks she might be allergic to {allergen2}, she gets rashes.",
                "How common is an allergy to {allergen2} in adults?",
            ],
        },
        "pt": {
            "say": [
                "Aviso importante: tenho alergia a {allergen}, descobri do pior jeito no "
                "ano passado."
            ],
            "reply": [
                "Obrigado por avisar, vou levar isso em conta. Ande sempre com o que o "
                "médico receitou para emergências."
            ],
            "fact": "{name} tem alergia a quê?",
            "para": "Que substância faz mal para {first}?",
            "distract": [
                "Minha colega acha que tem alergia a {allergen2}, fica com manchas na pele.",
                "Alergia a {allergen2} é comum em adultos?",
            ],
        },
    },
    {
        "key": "coffee",
        "slots": ["coffee"],
        "en": {
            "say": ["Random preference: I take my coffee {coffee}, always."],
            "reply": [
                "Noted. If you ever want a home version, I can suggest a simple method "
                "and the grind size to use."
            ],
            "fact": "How does {name} take coffee?",
            "para": "What does {first} usually order at the café?",
            "distract": ["My partner drinks {cafe2}, which I find a bit odd honestly."],
        },
        "pt": {
            "say": ["Preferência aleatória: meu café é sempre {coffee}."],
            "reply": [
                "Anotado. Se quiser fazer em casa, posso sugerir um método simples e a "
                "moagem certa."
            ],
            "fact": "Como {name} toma café?",
            "para": "O que {first} costuma pedir na cafeteria?",
            "distract": ["Meu namorado toma {cafe2}, o que acho meio estranho, sinceramente."],
        },
    },
    {
        "key": "book",
        "slots": ["book"],
        "en": {
            "say": ["I just finished reading {book} and I can't stop thinking about the ending."],
            "reply": [
                "Endings like that stay with you. If you want, I can suggest a few "
                "novels with a similar mood."
            ],
            "fact": "What book did {name} just finish?",
            "para": "Which novel left {first} haunted by how it concludes?",
            "when": "When did {name} finish {book}?",
            "distract": [
                "My book club picked {book2} this month, I haven't started it.",
                "Is {book2} worth reading? A colleague keeps recommending it.",
            ],
        },
        "pt": {
            "say": ["Terminei de ler {book} e não paro de pensar no final."],
            "reply": [
                "Finais assim ficam na cabeça. Se quiser, sugiro alguns romances com um "
                "clima parecido."
            ],
            "fact": "Que livro {name} terminou de ler?",
            "para": "Qual romance deixou {first} impressionado com o desfecho?",
            "when": "Quando {name} terminou {book}?",
            "distract": [
                "Meu clube de leitura escolheu {book2} este mês, ainda não comecei.",
                "Vale a pena ler {book2}? Um colega vive recomendando.",
            ],
        },
    },
    {
        "key": "wedding",
        "slots": ["friend", "date"],
        "en": {
            "say": ["{friend}'s wedding is on {date} and I'm giving a speech, help!"],
            "reply": [
                "Keep it under five minutes: one funny story, one sincere moment, then "
                "raise a glass to the couple."
            ],
            "fact": "Whose wedding is {name} giving a speech at?",
            "para": "At which marriage ceremony will {first} talk in front of the guests?",
            "when": "When is the wedding where {name} gives a speech?",
            "distract": [
                "I went to a wedding on {date2} years ago where the speech was awful.",
                "What's a good wedding present for a couple who has everything?",
            ],
        },
        "pt": {
            "say": ["O casamento de {friend} é dia {date} e eu vou fazer um discurso, socorro!"],
            "reply": [
                "Fale no máximo cinco minutos: uma história engraçada, um momento "
                "sincero e um brinde ao casal."
            ],
            "fact": "Em qual casamento {name} vai fazer um discurso?",
            "para": "Na cerimônia de quem {first} vai falar para os convidados?",
            "when": "Em que dia é o casamento em que {name} vai discursar?",
            "distract": [
                "Fui num casamento num {date2} anos atrás em que o discurso foi horrível.",
                "Qual um bom presente de casamento para quem já tem tudo?",
            ],
        },
    },
    {
        "key": "language",
        "slots": ["lang"],
        "en": {
            "say": ["I'm learning {lang} with an app, forty days in a row so far!"],
            "reply": [
                "Forty days is a great streak. Add a little listening every day, "
                "podcasts or series, so your ear keeps up with the vocabulary."
            ],
            "fact": "What language is {name} learning?",
            "para": "Which foreign tongue is {first} studying?",
            "when": "When did {name} mention the forty-day {lang} streak?",
            "later": "My tutor {tutor} spent the whole session correcting my verb endings.",
            "two": "Who is {name}'s {lang} tutor?",
            "distract": ["My niece is learning {lang2} at school and already corrects my accent."],
        },
        "pt": {
            "say": ["Estou aprendendo {lang} num aplicativo, já são quarenta dias seguidos!"],
            "reply": [
                "Quarenta dias é uma ótima sequência. Inclua um pouco de escuta todo dia, "
                "podcasts ou séries, para o ouvido acompanhar o vocabulário."
            ],
            "fact": "Que idioma {name} está aprendendo?",
            "para": "{first} estuda qual língua estrangeira?",
            "when": "Quando {name} contou dos quarenta dias de {lang}?",
            "later": "Meu tutor {tutor} passou a aula inteira corrigindo minhas conjugações.",
            "two": "Quem é o tutor de {lang} de {name}?",
            "distract": [
                "Minha sobrinha está aprendendo {lang2} na escola e já corrige meu sotaque."
            ],
        },
    },
    {
        "key": "volunteer",
        "slots": ["place"],
        "en": {
            "say": ["I've started volunteering at the {place} on Thursday evenings."],
            "reply": [
                "That's lovely. Regular volunteers are gold to places like that, even a "
                "couple of hours makes a difference."
            ],
            "fact": "Where does {name} volunteer?",
            "para": "What unpaid charity work does {first} do each week?",
            "when": "When did {name} start volunteering at the {place}?",
            "distract": [
                "The {place2} near my office is looking for volunteers, I saw a poster.",
                "Do you need training to volunteer at a {place2}?",
            ],
        },
        "pt": {
            "say": ["Comecei a fazer trabalho voluntário no {place} às quintas à noite."],
            "reply": [
                "Que bonito. Voluntários regulares valem ouro para lugares assim, até "
                "duas horas fazem diferença."
            ],
            "fact": "Onde {name} faz trabalho voluntário?",
            "para": "Que ajuda social sem remuneração {first} presta toda semana?",
            "when": "Quando {name} começou o voluntariado no {place}?",
            "distract": [
                "O {place2} perto do meu escritório está procurando voluntários, vi um cartaz.",
                "Precisa de treinamento para ser voluntário num {place2}?",
            ],
        },
    },
    {
        "key": "counselling",
        "slots": ["field"],
        "en": {
            "say": [
                "I've been seeing a career counsellor, because I'm not sure I want to stay "
                "in {field}."
            ],
            "reply": [
                "That's a smart step. Counsellors are good at separating what you dislike "
                "about a job from what you dislike about a whole field."
            ],
            "fact": "Why is {name} seeing a career counsellor?",
            "para": "Is {first} rethinking their professional path?",
            "when": "When did {name} mention the career counsellor?",
            "distract": ["My friend left {field2} after ten years and never looked back."],
        },
        "pt": {
            "say": [
                "Estou fazendo orientação vocacional, porque não sei se quero continuar em {field}."
            ],
            "reply": [
                "É um passo inteligente. A orientação ajuda a separar o que você não "
                "gosta num emprego do que não gosta numa área inteira."
            ],
            "fact": "Por que {name} está fazendo orientação vocacional?",
            "para": "{first} está repensando a própria carreira?",
            "when": "Quando {name} falou da orientação vocacional?",
            "distract": ["Um amigo saiu de {field2} depois de dez anos e nunca se arrependeu."],
        },
    },
    {
        "key": "team",
        "slots": ["team"],
        "en": {
            "say": ["I'm a huge {team} supporter, I've been going to games since I was a kid."],
            "reply": [
                "Nothing like a lifelong team! Match days with family are the best memories."
            ],
            "fact": "Which team does {name} support?",
            "para": "What club does {first} cheer for?",
            "distract": ["My boss supports {team2}, so Monday meetings after a derby are awkward."],
        },
        "pt": {
            "say": ["Torço para o {team} desde criança, vou aos jogos sempre que posso."],
            "reply": [
                "Nada como um time de coração! Dia de jogo com a família rende as "
                "melhores lembranças."
            ],
            "fact": "Para qual time {name} torce?",
            "para": "Qual clube {first} apoia nas arquibancadas?",
            "distract": [
                "Meu chefe é {team2}, então reunião de segunda depois de clássico é constrangedora."
            ],
        },
    },
    {
        "key": "garden",
        "slots": ["plant"],
        "en": {
            "say": ["I planted {plant} on the balcony today, hoping they survive the summer."],
            "reply": [
                "Balcony pots dry out fast: water early in the morning and move them out "
                "of the harshest afternoon sun."
            ],
            "fact": "What did {name} plant on the balcony?",
            "para": "What is {first} growing at home?",
            "when": "When did {name} plant the {plant}?",
            "distract": ["My mum grows {plant2} in her garden and gives half of them away."],
        },
        "pt": {
            "say": ["Plantei {plant} na varanda hoje, tomara que aguentem o verão."],
            "reply": [
                "Vaso de varanda seca rápido: regue cedo de manhã e tire do sol forte da tarde."
            ],
            "fact": "O que {name} plantou na varanda?",
            "para": "O que {first} está cultivando em casa?",
            "when": "Quando {name} plantou {plant}?",
            "distract": ["Minha mãe planta {plant2} no quintal e dá metade para os vizinhos."],
        },
    },
    {
        "key": "nephew",
        "slots": ["nephew"],
        "en": {
            "say": ["My nephew {nephew} turned {age} today, we had a party at the park."],
            "reply": [
                "Happy birthday to the little one! Park parties are the best: space to run "
                "and no cleaning up afterwards."
            ],
            "fact": "How old is {name}'s nephew?",
            "para": "What age did {first}'s brother's little boy reach?",
            "when": "When is the birthday of {name}'s nephew?",
            "distract": ["A kid at the park turned {age2} too, same day, what a coincidence."],
        },
        "pt": {
            "say": ["Meu sobrinho {nephew} fez {age} anos hoje, teve festa no parque."],
            "reply": [
                "Parabéns ao pequeno! Festa no parque é a melhor: espaço para correr e "
                "nada de arrumação depois."
            ],
            "fact": "Quantos anos tem o sobrinho de {name}?",
            "para": "Que idade completou o menino, filho do irmão de {first}?",
            "when": "Quando é o aniversário do sobrinho de {name}?",
            "distract": [
                "Uma criança no parque fez {age2} anos também, no mesmo dia, que coincidência."
            ],
        },
    },
]

#: What the assistant says after a distractor line or a later turn: nothing of the person's.
ACKS: dict[str, list[str]] = {
    "en": [
        "Good question. It really depends on the person and the situation, but it's worth "
        "asking someone who has done it.",
        "Ha, that happens more often than you'd think!",
        "That sounds like a lot. Take it one step at a time.",
        "Oh nice, that's a real milestone. Well done!",
        "Interesting! Let me know how it turns out.",
    ],
    "pt": [
        "Boa pergunta. Depende muito da pessoa e da situação, mas vale conversar com quem já "
        "passou por isso.",
        "Haha, isso acontece mais do que parece!",
        "Parece coisa demais. Vai com calma, um passo de cada vez.",
        "Que legal, é uma conquista de verdade. Parabéns!",
        "Interessante! Depois me conta como foi.",
    ],
}

#: Two-turn questions across two events: the answer needs one turn of each.
PAIRS: list[dict[str, Any]] = [
    {
        "events": ("move_city", "new_job"),
        "en": "Which city did {name} move to, and what job did they take?",
        "pt": "Para qual cidade {name} se mudou e qual emprego assumiu?",
    },
    {
        "events": ("adopt_pet", "move_city"),
        "en": "What pet does {name} have, and which city do they live in?",
        "pt": "Que animal de estimação {name} tem e em que cidade mora?",
    },
    {
        "events": ("diet", "favourite_food"),
        "en": "What is {name}'s diet and favourite dish?",
        "pt": "Qual é a dieta de {name} e o prato favorito?",
    },
    {
        "events": ("instrument", "hobby"),
        "en": "What does {name} do in their free time, music and otherwise?",
        "pt": "O que {name} faz no tempo livre, música e outras atividades?",
    },
    {
        "events": ("allergy", "diet"),
        "en": "What should a host know before cooking for {name}?",
        "pt": "O que um anfitrião precisa saber antes de cozinhar para {name}?",
    },
]

# ---------------------------------------------------------------------------------------------
# Everyday exchanges (filler): a request and the assistant's answer. Several share words with
# the events' questions (pets, moving, jobs, trips, music, coffee, books) without being about
# the person.
# ---------------------------------------------------------------------------------------------

FILLER: dict[str, list[tuple[str, str]]] = {
    "en": [
        (
            "Can you give me a checklist for moving house?",
            "Here's a simple one. Eight weeks out: declutter and book the van. Four weeks: "
            "change your address with the bank, doctor and employer, and order boxes. One "
            "week: pack everything except the essentials, defrost the freezer, confirm the "
            "van. Moving day: keep documents, chargers, medication and a kettle in one bag "
            "that travels with you.",
        ),
        (
            "How often should a dog be walked?",
            "Most adult dogs need at least two walks a day, thirty to sixty minutes in total, "
            "more for working breeds. Puppies need shorter, more frequent outings. Mental "
            "exercise, like sniffing games, counts too.",
        ),
        (
            "What's a good way to prepare for a job interview?",
            "Research the company, prepare three stories that show how you solve problems "
            "(situation, action, result), and have two questions ready for them. Practise "
            "out loud once; it's different from rehearsing in your head.",
        ),
        (
            "Explain compound interest like I'm twelve.",
            "Imagine you plant a money tree. Each year it grows new coins, and those new coins "
            "also grow coins the next year. The longer you wait, the faster the pile grows, "
            "because the growth itself is growing.",
        ),
        (
            "Write a short email asking my landlord to fix the boiler.",
            "Subject: Boiler repair needed\n\nHello,\n\nThe boiler in the flat stopped "
            "producing hot water on Tuesday. Could you arrange a repair this week? I'm home "
            "most mornings to let someone in.\n\nThank you,\n[Your name]",
        ),
        (
            "Give me a quick recipe for dinner with chickpeas.",
            "Fry an onion and two garlic cloves, add a tin of chickpeas, a tin of tomatoes, "
            "cumin, paprika and a handful of spinach. Simmer fifteen minutes, finish with "
            "lemon, serve with rice or bread.",
        ),
        (
            "What's the difference between a list and a tuple in Python?",
            "A list is mutable: you can append, remove and change items. A tuple is immutable, "
            "so it can be a dictionary key and signals that the data shouldn't change. Tuples "
            "are also slightly faster to create.",
        ),
        (
            "How do I get better sleep?",
            "Keep the same wake-up time every day, even at weekends; get daylight in the "
            "morning; stop caffeine after lunch; keep the bedroom cool and dark; and if you "
            "can't sleep after twenty minutes, get up and read until you're drowsy.",
        ),
        (
            "Any tips for packing light for a week away?",
            "Pick one colour palette so everything matches, take three tops, two bottoms, one "
            "layer, and wear the bulkiest shoes on the plane. Decant toiletries into small "
            "bottles and plan to do one sink wash mid-week.",
        ),
        (
            "How do I practise an instrument when I have no time?",
            "Schedule ten minutes at the same time each day, start with the hardest two bars "
            "of your piece, and stop while it's still going well. Consistency matters more "
            "than duration.",
        ),
        (
            "Recommend a board game for four adults.",
            "Try Ticket to Ride for something relaxed, Codenames if you like talking and "
            "guessing, or Azul if your group enjoys quiet puzzles. All three teach in under "
            "ten minutes.",
        ),
        (
            "How do I descale a kettle?",
            "Fill it halfway with equal parts water and white vinegar (or use citric acid), "
            "boil, leave for an hour, then rinse and boil fresh water twice to get rid of "
            "the taste.",
        ),
        (
            "What's a polite way to decline a meeting?",
            "Thank them, say you can't make it, and offer an alternative: 'Thanks for the "
            "invite. I can't join on Thursday, but I could review the notes afterwards or "
            "meet briefly on Friday.'",
        ),
        (
            "Summarise the causes of the First World War in three sentences.",
            "Rival alliances divided Europe into two armed camps. Nationalism, militarism and "
            "imperial competition raised tensions for decades. The assassination of Archduke "
            "Franz Ferdinand in 1914 triggered a chain of mobilisations that turned a regional "
            "crisis into a world war.",
        ),
        (
            "Is it better to rent or buy a home?",
            "It depends on how long you'll stay, local prices versus rents, and your savings. "
            "A common rule: if you'll stay fewer than five years, renting is often cheaper "
            "once you count fees, maintenance and the money tied up in a deposit.",
        ),
        (
            "How can I make my coffee at home taste better?",
            "Use freshly ground beans, weigh them (about 60 grams per litre), use water just "
            "off the boil, and clean your machine regularly. Stale beans are the most common "
            "problem.",
        ),
        (
            "Suggest a novel for a long flight.",
            "Something absorbing but not heavy: 'The Thursday Murder Club' if you want fun, "
            "'Where the Crawdads Sing' for atmosphere, or 'The Martian' if you like clever "
            "problem solving.",
        ),
        (
            "What stretches help with a stiff back after a day at the desk?",
            "Try cat-cow, a seated twist, child's pose and a doorway chest stretch, thirty "
            "seconds each. Getting up every forty-five minutes helps more than any stretch.",
        ),
        (
            "How do I write a SQL query that counts orders per customer?",
            "SELECT customer_id, COUNT(*) AS orders FROM orders GROUP BY customer_id ORDER BY "
            "orders DESC; add a HAVING clause if you only want customers above a threshold.",
        ),
        (
            "What should I plant on a shady balcony?",
            "Ferns, hostas, begonias, impatiens and mint all cope with shade. Herbs like parsley "
            "and chives tolerate part shade; tomatoes and peppers won't fruit well without sun.",
        ),
        (
            "Help me plan a budget for the month.",
            "List fixed costs first (rent, bills, transport), then set amounts for food and "
            "fun, and pay yourself into savings on payday before anything else. Track spending "
            "weekly, not monthly, so you can correct early.",
        ),
        (
            "Why is the sky blue?",
            "Sunlight contains all colours. Air molecules scatter short wavelengths, blue and "
            "violet, much more than red. Our eyes are more sensitive to blue than violet, so "
            "the scattered light we see overhead looks blue.",
        ),
        (
            "Give me a five-minute stretch routine before running.",
            "Leg swings front and back, leg swings side to side, walking lunges, high knees and "
            "butt kicks, about a minute each. Keep stretches dynamic before running and save "
            "long holds for afterwards.",
        ),
        (
            "How do I keep houseplants alive while I'm travelling?",
            "Water deeply before you leave, group the pots together away from direct sun, and "
            "for longer trips use wicks from a bowl of water or self-watering spikes.",
        ),
        (
            "Translate 'Where is the train station?' into French and Spanish.",
            "French: « Où est la gare ? » Spanish: «¿Dónde está la estación de tren?»",
        ),
        (
            "What are good questions to ask at the end of an interview?",
            "Ask what success looks like in the first ninety days, what the team's biggest "
            "challenge is right now, and what the next steps in the process are.",
        ),
    ],
    "pt": [
        (
            "Pode me passar uma lista de tarefas para mudança de casa?",
            "Claro. Oito semanas antes: desapegue e reserve o caminhão. Quatro semanas: "
            "atualize o endereço no banco, no médico e no trabalho, e compre caixas. Uma "
            "semana: embale tudo menos o essencial, descongele o freezer e confirme o frete. "
            "No dia: documentos, carregadores, remédios e uma chaleira numa bolsa que vai com "
            "você.",
        ),
        (
            "Quantas vezes por dia devo passear com um cachorro?",
            "A maioria dos cães adultos precisa de pelo menos dois passeios por dia, de trinta "
            "a sessenta minutos no total, mais para raças de trabalho. Filhotes precisam de "
            "saídas mais curtas e frequentes. Brincadeiras de farejar também contam.",
        ),
        (
            "Como me preparar para uma entrevista de emprego?",
            "Pesquise a empresa, prepare três histórias que mostrem como você resolve problemas "
            "(situação, ação, resultado) e leve duas perguntas para eles. Ensaie em voz alta "
            "uma vez; é diferente de repetir de cabeça.",
        ),
        (
            "Explique juros compostos como se eu tivesse doze anos.",
            "Imagine que você planta uma árvore de dinheiro. Todo ano ela dá moedas novas, e "
            "essas moedas também dão moedas no ano seguinte. Quanto mais você espera, mais "
            "rápido o monte cresce, porque o próprio crescimento cresce.",
        ),
        (
            "Escreva um e-mail curto pedindo ao proprietário para consertar o aquecedor.",
            "Assunto: Conserto do aquecedor\n\nOlá,\n\nO aquecedor do apartamento parou de "
            "esquentar a água na terça-feira. Seria possível agendar o conserto nesta semana? "
            "Estou em casa quase todas as manhãs.\n\nObrigado,\n[Seu nome]",
        ),
        (
            "Me dá uma receita rápida de jantar com grão-de-bico?",
            "Refogue uma cebola e dois dentes de alho, junte uma lata de grão-de-bico, uma de "
            "tomate pelado, cominho, páprica e um punhado de espinafre. Cozinhe quinze minutos, "
            "finalize com limão e sirva com arroz ou pão.",
        ),
        (
            "Qual a diferença entre lista e tupla em Python?",
            "A lista é mutável: dá para adicionar, remover e trocar itens. A tupla é imutável, "
            "pode ser chave de dicionário e indica que os dados não devem mudar. Tuplas também "
            "são um pouco mais rápidas de criar.",
        ),
        (
            "Como dormir melhor?",
            "Acorde sempre no mesmo horário, até no fim de semana; pegue luz do dia de manhã; "
            "corte a cafeína depois do almoço; deixe o quarto fresco e escuro; e se não dormir "
            "em vinte minutos, levante e leia até dar sono.",
        ),
        (
            "Dicas para fazer uma mala leve para uma semana de viagem?",
            "Escolha uma paleta de cores para tudo combinar, leve três blusas, duas calças, um "
            "casaco e vá com o sapato mais volumoso no avião. Coloque os produtos de higiene em "
            "frascos pequenos e planeje lavar roupa uma vez no meio da semana.",
        ),
        (
            "Como estudar um instrumento quando não tenho tempo?",
            "Reserve dez minutos no mesmo horário todo dia, comece pelos dois compassos mais "
            "difíceis da música e pare enquanto ainda está indo bem. Constância vale mais que "
            "duração.",
        ),
        (
            "Me indica um jogo de tabuleiro para quatro adultos.",
            "Ticket to Ride para algo tranquilo, Codenames se o grupo gosta de conversar e "
            "adivinhar, ou Azul para quem prefere quebra-cabeças silenciosos. Os três se "
            "aprendem em menos de dez minutos.",
        ),
        (
            "Como tirar o calcário da chaleira elétrica?",
            "Encha até a metade com água e vinagre branco em partes iguais (ou use ácido "
            "cítrico), ferva, deixe uma hora, depois enxágue e ferva água limpa duas vezes para "
            "tirar o gosto.",
        ),
        (
            "Qual um jeito educado de recusar uma reunião?",
            "Agradeça, diga que não consegue e ofereça uma alternativa: 'Obrigado pelo convite. "
            "Não consigo participar na quinta, mas posso ler a ata depois ou conversar "
            "rapidamente na sexta.'",
        ),
        (
            "Resuma as causas da Primeira Guerra Mundial em três frases.",
            "Alianças rivais dividiram a Europa em dois blocos armados. Nacionalismo, "
            "militarismo e disputa imperial aumentaram as tensões por décadas. O assassinato do "
            "arquiduque Francisco Ferdinando em 1914 disparou mobilizações em cadeia que "
            "transformaram uma crise regional numa guerra mundial.",
        ),
        (
            "É melhor alugar ou comprar um imóvel?",
            "Depende de quanto tempo você vai ficar, da relação entre preço e aluguel na região "
            "e das suas economias. Uma regra comum: se for ficar menos de cinco anos, alugar "
            "costuma sair mais barato contando taxas, manutenção e o dinheiro parado na "
            "entrada.",
        ),
        (
            "Como deixar o café feito em casa mais gostoso?",
            "Use grãos moídos na hora, pese (uns 60 gramas por litro), água logo abaixo da "
            "fervura e limpe a máquina com frequência. Grão velho é o problema mais comum.",
        ),
        (
            "Sugira um romance para um voo longo.",
            "Algo envolvente mas leve: 'O Clube do Crime das Quintas-Feiras' para se divertir, "
            "'Um Defeito de Cor' se quiser mergulhar fundo, ou 'Perdido em Marte' para quem "
            "gosta de soluções engenhosas.",
        ),
        (
            "Que alongamentos ajudam a lombar depois de um dia sentado?",
            "Gato-vaca, torção sentada, postura da criança e alongamento de peito no batente da "
            "porta, trinta segundos cada. Levantar a cada quarenta e cinco minutos ajuda mais "
            "que qualquer alongamento.",
        ),
        (
            "Como faço uma consulta SQL que conta pedidos por cliente?",
            "SELECT cliente_id, COUNT(*) AS pedidos FROM pedidos GROUP BY cliente_id ORDER BY "
            "pedidos DESC; use HAVING se quiser só clientes acima de um limite.",
        ),
        (
            "O que plantar numa varanda com pouco sol?",
            "Samambaias, begônias, lírio-da-paz, jiboia e hortelã aguentam sombra. Salsinha e "
            "cebolinha toleram meia-sombra; tomate e pimenta não frutificam bem sem sol.",
        ),
        (
            "Me ajuda a montar um orçamento para o mês?",
            "Liste primeiro os custos fixos (aluguel, contas, transporte), defina valores para "
            "comida e lazer, e guarde a poupança assim que o salário cair, antes de qualquer "
            "gasto. Acompanhe por semana, não por mês, para corrigir cedo.",
        ),
        (
            "Por que o céu é azul?",
            "A luz do sol tem todas as cores. As moléculas do ar espalham muito mais os "
            "comprimentos de onda curtos, azul e violeta, do que o vermelho. Nossos olhos são "
            "mais sensíveis ao azul que ao violeta, então o céu parece azul.",
        ),
        (
            "Me passa um alongamento de cinco minutos antes de correr?",
            "Balanço de perna para frente e para trás, balanço lateral, avanço caminhando, "
            "joelho alto e calcanhar no glúteo, mais ou menos um minuto cada. Antes de correr, "
            "alongamento dinâmico; os estáticos ficam para depois.",
        ),
        (
            "Como manter as plantas vivas enquanto viajo?",
            "Regue bem antes de sair, junte os vasos longe do sol direto e, para viagens longas, "
            "use pavios num pote de água ou cones de autoirrigação.",
        ),
        (
            "Traduza 'Onde fica a estação de trem?' para inglês e espanhol.",
            'Inglês: "Where is the train station?" Espanhol: «¿Dónde está la estación de tren?»',
        ),
        (
            "Que perguntas fazer no fim de uma entrevista?",
            "Pergunte o que é sucesso nos primeiros noventa dias, qual o maior desafio da equipe "
            "agora e quais são os próximos passos do processo.",
        ),
    ],
}

#: Long answers (several paragraphs) the assistant sometimes gives: they exercise passage
#: splitting and add text that shares everyday words with the questions.
LONG_ANSWERS: dict[str, list[tuple[str, str]]] = {
    "en": [
        (
            "Can you explain how to plan a weekly meal prep, in detail?",
            "Start on the weekend with a plan: pick two proteins, two grains and four "
            "vegetables, then write down which meal uses which.\n\nOn the day, cook the grains "
            "first because they take longest and need the least attention. While they simmer, "
            "roast the vegetables on two trays at a high temperature, turning once.\n\nPortion "
            "everything into containers while still warm, let them cool with the lids off, and "
            "refrigerate within two hours. Most cooked food keeps three to four days, so "
            "freeze the meals for Thursday and Friday.\n\nFinally, keep a few sauces on hand: "
            "a yoghurt-herb sauce, a peanut-lime dressing and a tomato salsa turn the same base "
            "into different dinners, which is what keeps meal prep from getting boring by "
            "Wednesday.",
        ),
        (
            "How do I start running if I've never done it?",
            "Begin with run-walk intervals: one minute of easy running, two minutes of walking, "
            "repeated eight times, three days a week.\n\nEach week, add thirty seconds to the "
            "running part and take thirty seconds off the walking part. By week eight most "
            "people can run twenty to thirty minutes without stopping.\n\nGo slow enough to "
            "talk in full sentences. Most beginners run too fast, get out of breath, and "
            "conclude that running isn't for them.\n\nShoes matter more than clothes: go to a "
            "running shop, try a few pairs and pick the ones you forget you're wearing. Replace "
            "them every 600 to 800 kilometres.",
        ),
    ],
    "pt": [
        (
            "Pode explicar em detalhes como planejar marmitas para a semana?",
            "Comece no fim de semana com um plano: escolha duas proteínas, dois grãos e quatro "
            "legumes, e anote qual refeição usa o quê.\n\nNo dia, cozinhe primeiro os grãos, "
            "que demoram mais e exigem menos atenção. Enquanto isso, asse os legumes em duas "
            "assadeiras em forno alto, virando uma vez.\n\nPorcione tudo nos potes ainda "
            "morno, deixe esfriar destampado e leve à geladeira em até duas horas. Comida "
            "cozida dura de três a quatro dias, então congele as marmitas de quinta e "
            "sexta.\n\nPor fim, tenha alguns molhos à mão: um de iogurte com ervas, um de "
            "amendoim com limão e um vinagrete de tomate transformam a mesma base em jantares "
            "diferentes, e é isso que evita o enjoo na quarta-feira.",
        ),
        (
            "Como começar a correr do zero?",
            "Comece alternando corrida e caminhada: um minuto de corrida leve, dois de "
            "caminhada, oito vezes, três dias por semana.\n\nA cada semana, some trinta "
            "segundos à corrida e tire trinta da caminhada. Na oitava semana a maioria das "
            "pessoas corre de vinte a trinta minutos sem parar.\n\nVá devagar a ponto de "
            "conseguir conversar. A maioria dos iniciantes corre rápido demais, perde o fôlego "
            "e conclui que corrida não é para eles.\n\nTênis importa mais que roupa: vá numa "
            "loja de corrida, experimente alguns e fique com o que você esquece que está "
            "usando. Troque a cada 600 a 800 quilômetros.",
        ),
    ],
}
