# ruff: noqa: E501  (message texts are data: kept on one line each)
"""A new training batch of English conversations of the extraction evaluation set, ids `en-train4b-*`, split `dev`, used to train the extractor's learned stage: speakers mostly from the UK, Ireland, India, Nigeria, South Africa and non-native speakers (Spanish, German, Polish, Filipino), on life admin, health, study, hobbies, moving country and relationships, mixed with task requests, pasted text, role-play, translation, hypotheticals and talk about other people. It was written blind, without reading the extractor, its tests, the benchmark or any other conversation of the set; only `turns.py`'s shape was used."""

from __future__ import annotations

from typing import Final

from turns import Conversation, by, chat, e, group, u

CONVERSATIONS: Final[tuple[Conversation, ...]] = (
    chat(
        u(
            "hiya, can you help me write a letter to the council about bin collection, they've missed our street 3 weeks running now. I'm in Leeds btw, Headingley, if that matters for who to address it to",
            e("fact", "Leeds"),
        ),
        u("make it a bit less angry please, i dont want to sound like a karen"),
        u(
            "perfect. can you also add that my neighbour is elderly and cant carry the bags to the main road"
        ),
    ),
    chat(
        u(
            "what is the difference between a GP referral and going private for physio in ireland? is it worth paying"
        ),
        u(
            "I'm 34 and tore my ACL playing camogie last season so its not a small thing, the public waiting list in Galway is like 9 months",
            e("identity", "34"),
            e("preference", "camogie"),
            e("fact", "ACL"),
            e("fact", "Galway"),
        ),
        u("ok and roughly how much would 10 sessions cost privately"),
        u("grand, thanks a million"),
    ),
    chat(
        u(
            'Translate to Polish please: "Dear Mr Nowak, I am writing to confirm that I will move into the flat on 1st March. I have two cats and I work from home, so I will be there most days."'
        ),
        u("and now make it more formal, it is for the landlord's agency"),
        u(
            "dziękuję! my english is better than my polish writing now haha, I left Kraków when I was 12 so I never learned formal letters properly",
            e("fact", "Krak"),
        ),
    ),
    chat(
        u(
            "```python\nimport pandas as pd\n\ndf = pd.read_csv('marks.csv')\ndf['avg'] = df[['m1','m2','m3']].mean()\nprint(df.head())\n```\nwhy is avg column all NaN"
        ),
        u("ahh axis=1. thanks. I want it rounded to 1 decimal too"),
        u(
            "this is for my MSc dissertation at Edinburgh, analysing exam marks from a school in Pune, so I'll have a lot more of these questions lol",
            e("fact", "Edinburgh"),
            e("project", "dissertation"),
        ),
    ),
    chat(
        u(
            "Act as an immigration officer at Heathrow and interview me, I want to practise. Start with 'What is the purpose of your visit?'"
        ),
        u("I am visiting my sister who lives in Reading, I will stay two weeks."),
        u(
            "I have return ticket and I am working as a teacher in Cebu, I can show letter from my school"
        ),
        u(
            "ok stop the roleplay. how did I do? was my english ok? I'm actually flying in april for real, first time in UK",
            e("goal", "UK"),
        ),
    ),
    chat(
        u("whats a good substitute for eggs in banana bread"),
        u(
            "my daughter has an egg allergy, she's 4, so it needs to be totally egg free not just less eggs",
            e("relationship", "daughter"),
        ),
        u("flax egg sounds good. how many for 2 eggs"),
    ),
    chat(
        u(
            'Can you proofread this for my uni application:\n\n"I have always been fascinated by how bridges stand. Growing up in Enugu, I watched the construction of the Ninth Mile flyover every day on my way to school. I want to study civil engineering because I want to build infrastructure that lasts."'
        ),
        u("is 'fascinated by how bridges stand' too informal"),
        u(
            "fine keep it. the deadline is friday and I'm applying to Manchester and Sheffield for civil eng",
            e("goal", "civil"),
        ),
    ),
    chat(
        u("quick one. convert 68 fahrenheit to celsius"),
        u("and 5 miles in km"),
        u(
            "can you just always use metric with me, I'm from Cape Town and I never think in miles or F",
            e("instruction", "metric"),
            e("identity", "Cape Town"),
        ),
    ),
    chat(
        u(
            "I'm trying to get this regex to work, it should match UK postcodes like SW1A 1AA and M1 1AE\n\n^[A-Z]{1,2}[0-9][A-Z0-9]? [0-9][A-Z]{2}$"
        ),
        u("it fails on lowercase input, I want it case insensitive"),
        u("great ty"),
    ),
    chat(
        u(
            "if I moved to Germany, would my nursing qualification from India be recognised straight away or do I have to do exams"
        ),
        u(
            "I'm a staff nurse in Kochi, 6 years ICU experience, thinking about it seriously for next year",
            e("identity", "nurse"),
            e("fact", "Kochi"),
            e("skill", "ICU"),
        ),
        u("what level of german do they want, B2?"),
        u("ok I've started learning german on duolingo but its slow", e("goal", "German")),
        u("can you make me a 12 week study plan to get to B1 at least"),
    ),
    group(
        ("Siobhan", "Declan"),
        by(
            "Siobhan",
            "right so we need to pick a date for mam's 60th, I can't do any weekend in june, I'm doing the Dublin marathon training block and the long runs are saturdays",
            e("goal", "Siobhan", "marathon", forbid=("user",)),
        ),
        by("Declan", "july then? ask the bot what's a good venue near Athlone for about 40 people"),
        by(
            "Siobhan",
            "also no seafood place, I'm allergic to shellfish remember",
            e("fact", "Siobhan", "shellfish", forbid=("user",)),
        ),
        by(
            "Declan",
            "grand. and somewhere with parking, I'll be driving up from Limerick with the kids",
            e("fact", "Declan", "Limerick", forbid=("user",)),
            e("relationship", "Declan", "kids", forbid=("user",)),
        ),
    ),
    chat(
        u(
            "help me write a cover letter for this:\n\nJob: Junior Data Analyst, NHS Greater Glasgow and Clyde\nBand 5. You will support the performance team producing weekly dashboards in Power BI. Essential: SQL, Excel. Desirable: Python, experience in healthcare.\n\nI've got 2 years of SQL from my current job at a bank and I've done some Power BI at uni",
            e("skill", "SQL"),
        ),
        u("mention I work at Clydesdale Bank in the fraud team", e("fact", "Clydesdale")),
        u("shorter please, max 250 words"),
        u("I like the second paragraph, keep that exactly, rewrite the rest"),
    ),
    chat(
        u(
            "my flatmate keeps leaving dishes in the sink for days, how do I bring it up without a fight"
        ),
        u("she's actually my best mate from school so I dont want to ruin it"),
        u("ok the text message idea is good, draft one"),
    ),
    chat(
        u("Explain the Krebs cycle like I'm 12"),
        u(
            "ok now like I'm a second year medical student cos that's what I am lol, I've got a biochem exam at Ibadan next week",
            e("identity", "medical student"),
            e("fact", "Ibadan"),
        ),
        u("make me 10 MCQs on it"),
        u("answers: 1b 2c 3a 4d 5b 6a 7c 8c 9b 10d"),
    ),
    chat(
        u(
            "Hola, I need help with my CV in english. I am a physiotherapist from Valencia and I moved to Dublin in september, now I search job here",
            e("identity", "physiotherapist"),
            e("fact", "Dublin"),
            e("identity", "Valencia"),
        ),
        u(
            "here is the spanish version:\n\nEXPERIENCIA\n2018-2024 Fisioterapeuta, Clínica Vithas, Valencia\n- Rehabilitación deportiva\n- Tratamiento de lesiones de rodilla y hombro\nFORMACIÓN\nGrado en Fisioterapia, Universitat de València"
        ),
        u("in Ireland do they put photo on CV? in Spain is normal"),
        u("ok no photo. also I need to register with CORU, what is the process"),
    ),
    chat(
        u(
            'can you rewrite this paragraph from my blog to sound less boring\n\n"I started bouldering in January. At first I could not even do the easiest routes. Now I climb V4 and I go three times a week. It changed my life."'
        ),
        u(
            "its my actual blog btw, I do bouldering at the Arch in London, been climbing about 10 months now",
            e("preference", "boulder"),
            e("skill", "climb"),
        ),
        u("make it sound more like a person talking, less like a brochure"),
    ),
    chat(
        u(
            "I need a python function that takes a list of dates as strings 'dd/mm/yyyy' and returns them sorted"
        ),
        u("I want it to return a list of datetime objects, not strings"),
        u("and skip invalid ones instead of crashing"),
    ),
    chat(
        u(
            "hi so my boyfriend and I are doing long distance, he's in Lagos and I'm in Birmingham, any ideas for things we can do together online for his birthday",
            e("relationship", "boyfriend"),
            e("fact", "Birmingham"),
        ),
        u("he loves afrobeats and football, Arsenal mad"),
        u("the watch party idea is cute. can you write him a little birthday poem, not too cheesy"),
        u("more cheesy actually lol"),
    ),
    chat(
        u(
            "Please summarize this email in 3 bullet points:\n\nHi all,\nFollowing the restructure, I will be leaving the company at the end of the month. I have been in this team for 7 years and I'm proud of what we built. My responsibilities will be split between Priya and Tom. I'm moving to Canada with my family and will start a new role in Toronto in January.\nBest,\nGareth"
        ),
        u("and draft a short reply from me wishing him well"),
    ),
    chat(
        u("what are the symptoms of iron deficiency"),
        u(
            "I've been vegetarian since I was 15 and I'm always knackered, so wondering",
            e("fact", "vegetarian"),
        ),
        u("what foods are highest in iron that arent meat"),
        u("i hate spinach tho, texture is gross", e("preference", "spinach")),
    ),
    chat(
        u(
            "write a whatsapp message to my landlord in Johannesburg, the geyser burst again and water is everywhere in the ceiling",
            e("fact", "Johannesburg"),
        ),
        u("make it firmer, this is the 2nd time in 4 months"),
        u("thanks. also what does my lease usually say about who pays for geyser repair in SA"),
    ),
    chat(
        u(
            'Correct my grammar please: "Yesterday I have went to the doctor because my back is hurting since two weeks."'
        ),
        u("why is 'since two weeks' wrong? in german we say 'seit zwei Wochen'"),
        u(
            "ah ok. I am from Stuttgart and I work now in an english company so I want to improve my grammar a lot",
            e("identity", "Stuttgart"),
            e("goal", "grammar"),
        ),
        u(
            "from now on, when I write to you, please correct my mistakes at the end of your answer",
            e("instruction", "correct"),
        ),
        u("What is a good book for business english?"),
    ),
    chat(
        u(
            "my mum just got diagnosed with type 2 diabetes and she's staying with us in Leicester for a few weeks, what can I cook that's still Gujarati food but diabetic friendly",
            e("fact", "Leicester"),
            e("relationship", "diabet"),
        ),
        u("she doesnt eat onion or garlic, shes Jain"),
        u("ok give me a 7 day plan, lunch and dinner"),
        u("I'm not much of a cook honestly, keep it simple"),
    ),
    chat(
        u(
            "I need to renew my Nigerian passport while living in the UK, what are the steps now, is it still the online portal",
            e("identity", "Nigeria"),
        ),
        u(
            "I live in Milton Keynes, which is the nearest place for biometrics",
            e("fact", "Milton Keynes"),
        ),
        u(
            "ok, and can I book for my son too, he's 7 and his passport expired",
            e("relationship", "son"),
        ),
    ),
    chat(
        u(
            "ok so I just started a new job as a junior solicitor at a firm in Belfast and I'm terrified, any tips for the first month",
            e("identity", "solicitor"),
            e("fact", "Belfast"),
        ),
        u("I'm mostly doing conveyancing for now"),
        u("how do I say no to a partner who keeps giving me work on friday at 5pm lol"),
        u("write me a polite script for that"),
    ),
    chat(
        u(
            "Here's my error:\n\nTraceback (most recent call last):\n  File \"app.py\", line 14, in <module>\n    from flask_sqlalchemy import SQLAlchemy\nModuleNotFoundError: No module named 'flask_sqlalchemy'\n\nI did pip install flask-sqlalchemy already"
        ),
        u(
            "which python shows /usr/bin/python3 and pip is from ~/.local. I'm on Ubuntu 22.04 on an old Thinkpad",
            e("environment", "Ubuntu"),
            e("environment", "Thinkpad"),
        ),
        u("ok the venv fixed it. how do I make vs code use the venv automatically"),
    ),
    chat(
        u(
            "Can you help me plan a 5 day trip to Kerala in december? budget around 60k INR for two people"
        ),
        u(
            "my wife doesnt like very spicy food btw and we both hate long bus rides",
            e("relationship", "wife"),
            e("preference", "bus"),
        ),
        u("make it more relaxed, fewer places"),
    ),
    chat(
        u(
            "i've been on sertraline 50mg for about 3 months for anxiety and the GP wants to up it to 100, is that normal",
            e("fact", "sertraline"),
            e("fact", "anxiety"),
        ),
        u("what side effects are common when they increase"),
        u("ok thanks, i'll ask her about the sleep stuff"),
    ),
    chat(
        u(
            'Translate into English for my daughter\'s teacher: "Szanowna Pani, Zosia nie będzie w szkole w piątek, ponieważ mamy wizytę u lekarza."',
            e("relationship", "daughter"),
        ),
        u("and can you make it sound natural, like a british mum would write"),
        u(
            "thank you. we only moved to Bristol in the summer so I'm still learning how school emails work here",
            e("fact", "Bristol"),
        ),
    ),
    chat(
        u("What's the Gaelic for 'happy birthday'?"),
        u("and how do you pronounce it"),
        u(
            "lovely. I did Irish all through school but honestly I've lost most of it",
            e("skill", "Irish"),
        ),
    ),
    chat(
        u(
            "ok brain dump incoming:\n- pay council tax (due 1st)\n- renew car insurance, quote from admiral was 780\n- dentist for Ben\n- email Ms Patel re parents evening\n- cancel netflix?\n- book MOT\n\ncan you turn this into a weekly plan, I work mon-wed only"
        ),
        u(
            "Ben is my eldest, he's 9, the dentist needs to be after school",
            e("relationship", "Ben"),
        ),
        u("put the insurance first, it expires on the 12th"),
    ),
    chat(
        u("explain the offside rule quickly"),
        u(
            "my husband is obsessed with football and i want to at least understand what he's yelling about lol",
            e("relationship", "husband"),
        ),
    ),
    chat(
        u(
            "I'm a software engineer at Flutterwave in Lagos and I'm thinking of doing a masters abroad, Germany or Netherlands, which is better for someone with 4 yrs experience",
            e("identity", "software engineer"),
            e("fact", "Flutterwave"),
            e("goal", "master"),
        ),
        u("I mostly write Go and some Kotlin", e("skill", "Go")),
        u("tuition is important, I'm self funding"),
        u("list 5 programs in Germany taught in english, CS or data engineering"),
    ),
    chat(
        u(
            "I want to get back into running after having my baby, she's 5 months now, I used to do 10ks before, where do I start",
            e("relationship", "baby"),
            e("goal", "running"),
        ),
        u("I had a c-section if that changes anything", e("fact", "c-section")),
        u("make me a gentle 8 week plan, 3 days a week"),
    ),
    chat(
        u(
            'rewrite this so it sounds professional:\n\n"hey guys im gonna be out next week cos my grandad passed away, the funeral is in Cork, ill have my phone but pls dont call unless its on fire"'
        ),
        u("keep the bit about the phone but nicer"),
    ),
    chat(
        u("is it cheaper to send money home to the Philippines with Wise or Remitly"),
        u(
            "I send about 300 pounds a month to my parents in Iloilo, I'm a care worker here in Norwich",
            e("identity", "care worker"),
            e("fact", "Norwich"),
            e("relationship", "Iloilo"),
        ),
        u("ok and which one is faster for GCash"),
    ),
    group(
        ("Thabo", "Lerato", "Sipho"),
        by(
            "Thabo",
            "ok team, we need to split the braai shopping for saturday. I'll do the meat, I know a butcher in Soweto who gives good prices",
        ),
        by(
            "Lerato",
            "I'll bring salads but nothing with mayo from me, I'm vegan now since march so also don't expect me to eat the wors lol",
            e("fact", "Lerato", "vegan", forbid=("user",)),
        ),
        by("Sipho", "ask the AI how much meat for 15 people"),
        by(
            "Thabo",
            "and drinks? I don't drink anymore btw so someone else choose the beer",
            e("preference", "Thabo", "drink", forbid=("user",)),
        ),
        by(
            "Sipho",
            "I'll sort the beer, I brew my own now, been doing it for two years",
            e("skill", "Sipho", "brew", forbid=("user",)),
        ),
    ),
    chat(
        u(
            "can you check this SQL, it's too slow on postgres\n\nSELECT c.name, COUNT(o.id)\nFROM customers c\nLEFT JOIN orders o ON o.customer_id = c.id\nWHERE o.created_at > now() - interval '30 days'\nGROUP BY c.name;"
        ),
        u("there are 12 million orders"),
        u("index on (customer_id, created_at) done, went from 40s to 2s, nice"),
        u("also why do customers with no orders disappear, I want them with 0"),
    ),
    chat(
        u(
            "I'm writing a fantasy novel and I need names for a northern kingdom, kind of norse but not too obvious",
            e("project", "novel"),
        ),
        u(
            "it's my first book, I've been working on it in the evenings for about a year, about 60k words in"
        ),
        u("give me 10 more, shorter ones"),
    ),
    chat(
        u(
            "hypothetically if I earned 45k in Scotland vs England how much different would my take home be"
        ),
        u("and at 55k"),
        u(
            "interesting, I'm in London now but we've been talking about moving up to Edinburgh",
            e("fact", "London"),
            e("goal", "Edinburgh"),
        ),
    ),
    chat(
        u(
            "I use neovim with lazy.nvim, how do I set up pyright so it sees my poetry venv",
            e("environment", "neovim"),
        ),
        u(
            "here's my config\n\nrequire('lspconfig').pyright.setup({\n  settings = { python = { analysis = { typeCheckingMode = 'basic' } } }\n})"
        ),
        u(
            "worked. also I moved from vscode to neovim like a month ago and I'm still slow, any good motions to learn first",
            e("environment", "neovim", forbid=("vscode",)),
        ),
    ),
    chat(
        u(
            "My friend is from Ghana and she's getting married next month, what's a good gift for a Ghanaian wedding"
        ),
        u("she's doing the traditional engagement too, do guests bring something to that"),
        u(
            "ok thanks. i'm going with my partner, what do we wear, is it ok for non-Ghanaians to wear kente",
            e("relationship", "partner"),
        ),
    ),
    chat(
        u("give me a recipe for jollof rice, proper nigerian one not ghanaian lol"),
        u("I don't have scotch bonnet, can I use chilli flakes"),
        u(
            "my oyinbo boyfriend is making it for my mum's visit, so he needs very clear steps haha",
            e("relationship", "boyfriend"),
        ),
    ),
    chat(
        u(
            "Act as a job interviewer for a barista position at a cafe in Galway. Ask me one question at a time."
        ),
        u(
            "I have worked two years in a coffee shop in Madrid, I can make latte art and I am very fast in the rush hour."
        ),
        u("My weakness is maybe my english, sometimes I don't understand fast accents."),
        u("end interview. give feedback"),
        u(
            "ok useful. I really do have an interview on thursday in Galway, my first job here since I arrived",
            e("fact", "Galway"),
        ),
    ),
    chat(
        u(
            "I'm 52 and just been told I'm pre-diabetic, what changes actually make a difference",
            e("identity", "52"),
            e("fact", "diabet"),
        ),
        u(
            "I walk the dog every day already, about 40 min, he's a springer spaniel called Murphy",
            e("relationship", "Murphy"),
        ),
        u("what about breakfast, I usually have toast and marmalade"),
        u(
            "porridge it is. can you remind me in every answer to keep portions small? joking, you can't do that"
        ),
    ),
    chat(
        u(
            'Rewrite this in simple English for my students (A2 level):\n\n"The Industrial Revolution, which began in Britain in the late eighteenth century, fundamentally transformed the economic and social fabric of the nation."'
        ),
        u("and make 5 comprehension questions"),
        u(
            "I teach english in a secondary school in Gdańsk, so you can expect more of these",
            e("identity", "teach"),
            e("fact", "Gda"),
        ),
        u(
            "please always make the questions answerable in one sentence, my students are teenagers and they give up fast",
            e("instruction", "one sentence"),
        ),
    ),
    chat(
        u("what is a good laptop under 800 pounds for video editing"),
        u("mostly davinci resolve, 1080p youtube stuff"),
        u(
            "I've got an old macbook air 2017 now and it just dies when I render",
            e("environment", "macbook"),
        ),
        u("ok I'll look at the asus one"),
    ),
    chat(
        u(
            "write a toast for my brother's wedding, he's marrying his girlfriend of 8 years, they met at uni in Durham. funny but sweet, 2 min",
            e("relationship", "brother"),
        ),
        u("add a bit about how he once got lost in IKEA for 3 hours"),
        u("less roasting, mum will be there"),
    ),
    chat(
        u("explain the difference between a Roth IRA and a UK ISA"),
        u(
            "my cousin in the US keeps telling me about Roth IRAs, I just want to know if there's an equivalent here"
        ),
        u(
            "ok so lifetime ISA vs stocks and shares ISA then, I'm 29 and saving for a first house",
            e("identity", "29"),
            e("goal", "house"),
        ),
    ),
    chat(
        u(
            "hi, I'm from Manila and I work as a nurse in a hospital in Riyadh, I want to apply for the NMC in UK, what english test do I need",
            e("identity", "Manila"),
            e("identity", "nurse"),
            e("fact", "Riyadh"),
            e("goal", "NMC"),
        ),
        u("IELTS or OET which is easier for nurses"),
        u("ok OET. make me a study schedule for 8 weeks, I work 12 hour shifts 4 days a week"),
    ),
    chat(
        u(
            "I'm doing my A levels (bio, chem, maths) and I want to do dentistry, is it realistic with predicted AAB",
            e("fact", "level"),
            e("goal", "dentistry"),
        ),
        u("what about UCAT, what score do I need"),
        u("make me a UCAT revision timetable for the summer"),
        u("I can't study in the mornings, I'm useless before 11", e("preference", "morning")),
    ),
    chat(
        u(
            "Please translate to Spanish, it's for my abuela's birthday card: \"I miss you so much, I hope I can visit you in Sevilla next summer with the kids.\""
        ),
        u("make it more tender"),
    ),
    group(
        ("Aoife", "Niamh"),
        by(
            "Aoife",
            "ok we need to plan the Lisbon trip, I'm off from the 14th. I'm a teacher so I can only go in school holidays lol",
            e("identity", "Aoife", "teacher", forbid=("user",)),
        ),
        by(
            "Niamh",
            "I'd rather not do a hostel this time, I'm 31 not 21",
            e("identity", "Niamh", "31", forbid=("user",)),
        ),
        by(
            "Aoife",
            "ask it for a 4 day itinerary, and I get seasick so no boat tours",
            e("fact", "Aoife", "seasick", forbid=("user",)),
        ),
        by(
            "Niamh",
            "and I want at least one day at the beach, I'm learning to surf at the moment so maybe a lesson in Ericeira",
            e("goal", "Niamh", "surf", forbid=("user",)),
        ),
    ),
    chat(
        u("what are good questions to ask at the end of a PhD interview"),
        u(
            "it's for a PhD in marine biology at University of Cape Town, I'm finishing my masters at Stellenbosch this year",
            e("goal", "PhD"),
            e("fact", "Stellenbosch"),
        ),
        u(
            "can you also help me explain my gap year, I worked on a dive boat in Mozambique",
            e("skill", "dive"),
        ),
    ),
    chat(
        u(
            "i'm learning the guitar and my fingers hurt so much, is that normal",
            e("goal", "guitar"),
        ),
        u("I'm 40 lol, started last month, always wanted to play", e("identity", "40")),
        u("give me 3 easy songs with just G C D"),
        u(
            "I'm more into indie than country, arctic monkeys, oasis that kind of thing",
            e("preference", "indie"),
        ),
    ),
    chat(
        u(
            "I just moved from Hyderabad to Frankfurt for work and need to register my address, what is Anmeldung and how do I book",
            e("fact", "Frankfurt", forbid=("Hyderabad",)),
        ),
        u(
            "the appointment site is all german, can you translate these fields: Vorname, Familienname, Geburtsort, Staatsangehörigkeit, Einzugsdatum"
        ),
        u("also need a bank account, N26 or Deutsche Bank for someone without Schufa"),
        u(
            "I don't speak any German yet by the way, only English, Hindi and Telugu",
            e("skill", "Hindi"),
            e("skill", "Telugu"),
        ),
    ),
    chat(
        u(
            "my partner Kasia and I are trying to decide between getting a dog or a cat, we both work full time in an apartment in Wrocław",
            e("relationship", "Kasia"),
            e("fact", "Wroc"),
        ),
        u("she wants a dog, I'm more of a cat person", e("preference", "cat")),
        u("what dog breeds are ok alone for 8 hours, if any"),
    ),
    chat(
        u(
            "summarise the main arguments of this essay prompt for me:\n\n\"'Social media has done more harm than good to young people.' Discuss with reference to at least two studies.\"\n\nI need a plan, not the essay"
        ),
        u("I'm against the statement, I think it's more mixed"),
        u("make the plan 5 paragraphs"),
    ),
    chat(
        u("how do I politely tell my in-laws they can't stay with us for a whole month"),
        u(
            "they're coming from Abuja and it's a big deal culturally to host them, my wife would be upset if it sounds rude",
            e("relationship", "wife"),
        ),
        u("ok write it as if it's from both of us"),
    ),
    chat(
        u(
            "I'm switching from android to iphone after like 10 years, how do I move my whatsapp chats",
            e("environment", "iphone", forbid=("android",)),
        ),
        u("it's a samsung s21 to an iphone 15"),
        u("thanks it worked"),
    ),
    group(
        ("Priya", "Arjun"),
        by(
            "Priya",
            "can you both look at this rota for the wedding prep, I've put Arjun on the mehndi decorations",
        ),
        by(
            "Arjun",
            "I'm rubbish at decorating, put me on driving, I've got the car anyway since I started at Infosys in Pune",
            e("fact", "Arjun", "Infosys", forbid=("user",)),
        ),
        by("Priya", "fine. ask the AI for a checklist for a mehndi night for 80 people"),
        by("Arjun", "and tell it no alcohol, it's a dry event"),
    ),
    chat(
        u("I've got a driving test in 2 weeks in Swindon and my roundabouts are awful, any tips"),
        u(
            "I'm 18 and I've failed once already, the examiner said I hesitated too much",
            e("identity", "18"),
        ),
        u("what are the most common fails in the UK test"),
    ),
    chat(
        u(
            "hi, I'm writing a thesis on solar microgrids in rural Nigeria for my engineering masters at Aachen, can you help me structure the literature review",
            e("project", "thesis"),
            e("fact", "Aachen"),
        ),
        u(
            "the chapters I have: intro, background on Nigerian grid, microgrid tech, case studies, policy"
        ),
        u(
            "please use British spelling in everything you write for me, my supervisor is picky",
            e("instruction", "British spelling"),
        ),
        u("ok now draft the intro to the policy section, about 300 words"),
    ),
    chat(
        u(
            "hey, need help sorting out my electricity account, I'm in a rented house in Cork city and the bill is in the previous tenant's name still",
            e("fact", "Cork"),
        ),
        u("it's with Electric Ireland. what do I need to give them, meter reading and MPRN?"),
        u(
            "ok that's done. separate q, my sister and I are thinking of getting our mam a smart speaker for christmas, is Alexa or Google easier for someone in her 70s"
        ),
        u("she's not great with tech at all lol, she still calls me to open her emails"),
        u("right, going with the echo. thanks for that"),
        u(
            "update months later: I'm not in Cork anymore, moved up to Dublin for the new job in Grant Thornton, started in March. so the same question again but for the Dublin flat, it's Bord Gáis this time",
            e("fact", "Dublin", forbid=("Cork",)),
            e("fact", "Grant Thornton"),
        ),
        u("and remind me, is there a standing charge difference between urban and rural"),
    ),
    chat(
        u(
            'Help me answer this email from my professor:\n\n"Dear Maria,\nThank you for your draft. Chapter 2 needs a stronger link to your research question. Could we meet on Tuesday at 3pm? If not, please propose another time.\nBest regards,\nProf. Schmidt"'
        ),
        u(
            "I can't on tuesday, I have my shift at the supermarket, I work there part time to pay rent",
            e("fact", "supermarket"),
        ),
        u("suggest wednesday or thursday morning"),
        u(
            "also he is right about chapter 2, can you help me think how to link it. my research question is how Filipino domestic workers in Hong Kong use Facebook groups for support"
        ),
        u(
            "I'm Filipina myself and my tita worked in HK for 15 years, that's why I chose it",
            e("identity", "Filipin"),
        ),
        u("ok give me 3 possible linking paragraphs, short"),
    ),
)
