# ruff: noqa: E501  (message texts are data: kept on one line each)
"""A new training batch of English conversations of the extraction evaluation set, ids
`en-train5b-*`, split `dev`, used to train the extractor's learned stage: one-person chats and
four group conversations in the style of real assistant exports (lower case, typos, pasted code,
tracebacks, e-mails, job posts, role-play and translation prompts, requests about the task at
hand), with speakers from Canada, New Zealand, Wales, Pakistan, Ghana, Jamaica and non-native
speakers (French, Italian, Vietnamese, Turkish), weighted to nursing and medicine, teaching, law,
music, dating, cars, home repair, finance and taxes. It was written blind: without reading the
extractor, its tests, the benchmark or any other conversation of the set; only `turns.py`'s
shape was used."""

from __future__ import annotations

from typing import Final

from turns import Conversation, by, chat, e, group, u

CONVERSATIONS: Final[tuple[Conversation, ...]] = (
    chat(
        u(
            "hey so i need a handover note template for night shift, sbar style. im a nurse on a cardiac step-down unit in winnipeg, been doing it about 6 yrs so i dont need the basics explained",
            e("identity", "nurse"),
            e("fact", "winnipeg"),
            e("skill", "6"),
        ),
        u("can u make it shorter, it has to fit on half a page when printed"),
        u("perfect. add a line for pain score and one for tele alarms overnight"),
        u(
            "thank u!! night shift brain lol. honestly i hate nights but the differential pays for daycare",
            e("preference", "night"),
        ),
    ),
    chat(
        u(
            "Assalam o alaikum, please proofread this paragraph from my assignment, dont change the meaning: 'I have argued in the previous section that the doctrine of frustration cannot be invoked merely because performance has become more expensive. I further submit that the courts in Pakistan have followed the English position closely.'"
        ),
        u(
            "ok thanks. also for context i'm in final year LLB at Punjab University Law College so the tone should be academic but not too flowery",
            e("fact", "llb"),
            e("fact", "punjab"),
        ),
        u(
            "can you give me 3 case names on frustration of contract i can cite, pakistani ones if possible"
        ),
        u("is Taylor v Caldwell still good law"),
        u(
            "I prefer footnotes over in-text citations btw, always do it that way for my law stuff please",
            e("instruction", "footnote"),
        ),
    ),
    chat(
        u(
            "wah gwaan, mi car a mek a grinding noise when mi brake, front left side. is a 2011 corolla, like 190k km on it",
            e("fact", "corolla"),
        ),
        u("how much fi brake pads and rotors roughly? mechanic seh 38000 jmd"),
        u(
            "yeah i think i can do the pads myself, done oil changes and spark plugs before on my old civic so i not totally clueless",
            e("skill", "oil change"),
        ),
        u("what tools i need exactly"),
        u("aight bless"),
    ),
    chat(
        u(
            "I need a lesson plan for year 4 on the water cycle, 50 minutes, with a practical bit at the start. we do a lot of group work"
        ),
        u(
            "oh and it has to be bilingual, I teach at a Welsh-medium primary in Caerphilly so the vocab list needs Welsh and English",
            e("identity", "teach"),
            e("fact", "caerphilly"),
        ),
        u("diolch! can you add a differentiated worksheet for the lower ability table"),
        u("if I taught in an english school would the curriculum be different for this topic?"),
        u("fair enough. make the plenary 5 min not 10"),
    ),
    chat(
        u(
            "how do i file my annual tax return with GRA as a self employed person? i do freelance graphic design from Kumasi, mostly clients abroad paying in dollars",
            e("identity", "graphic design"),
            e("fact", "kumasi"),
        ),
        u("do i need to register for VAT if i make about 150k cedis a year"),
        u("what's the deadline for this year"),
        u(
            "ok and can i deduct my laptop and internet bills? i work on a macbook pro and draw on an ipad with procreate",
            e("environment", "macbook"),
            e("environment", "procreate"),
        ),
    ),
    chat(
        u(
            "hello, i am french and i live in montreal since 2 years. saturday i have a first date with a girl from quebec city and i am a bit nervous about the expressions, can you explain me some quebec slang so i dont look stupid",
            e("identity", "french"),
            e("fact", "montreal"),
        ),
        u("haha 'tiguidou' is funny. what does 'pantoute' mean"),
        u(
            "and where to go for a first date in plateau mont-royal, something not too expensive. i dont drink alcohol so not a bar please",
            e("preference", "alcohol"),
        ),
        u("ok i think the café idea is good. thank you"),
    ),
    chat(
        u(
            "translate to english please, keep it poetic: 'Sono nato in una città di mare, e ancora oggi quando suono la chitarra sento le onde.'"
        ),
        u(
            "nice. it's for a song i am writing, i play guitar since 15 years and i give lessons in Bologna, now i want to do songs in english too",
            e("skill", "guitar"),
            e("fact", "bologna"),
            e("goal", "english"),
        ),
        u("can you make the second line rhyme with 'sea'"),
        u("i like the second version better"),
        u("what chords would fit a melancholic mood in A minor"),
    ),
    chat(
        u(
            "Hi, I'm a 5th year med student in Hanoi and I'm planning to take USMLE Step 1 next year, my goal is residency in internal medicine in the US. Can you make a 6 month study schedule?",
            e("identity", "med"),
            e("fact", "hanoi"),
            e("goal", "usmle"),
            e("goal", "internal medicine"),
        ),
        u("I can study around 4 hours on weekdays and 8 on weekend"),
        u("what is the difference between UWorld and Amboss, which one better"),
        u("ok make the schedule with uworld. please put it in a table"),
    ),
    chat(
        u(
            "my kitchen tap is dripping non stop, its a single lever mixer. how do i change the cartridge"
        ),
        u("i turned off the water under the sink already. the handle has a small red blue cap"),
        u("ok the screw under the cap is stuck, what do i do"),
        u(
            "worked. btw i live in Izmir and hardware stores here dont always have same brands, what should i ask for in the shop",
            e("fact", "izmir"),
        ),
        u("teşekkürler, it stopped dripping"),
    ),
    chat(
        u(
            "getting this when i run my script, no idea why\n\nTraceback (most recent call last):\n  File \"/home/tama/proj/rates/fetch.py\", line 41, in <module>\n    main()\n  File \"/home/tama/proj/rates/fetch.py\", line 37, in main\n    df = pd.read_csv(io.StringIO(resp.text), parse_dates=['date'])\n  File \"/usr/lib/python3.12/site-packages/pandas/io/parsers/readers.py\", line 1026, in read_csv\n    return _read(filepath_or_buffer, kwds)\nValueError: Missing column provided to 'parse_dates': 'date'"
        ),
        u(
            "the header is 'Date' with capital D i think. i want the function to return a list of dicts not a dataframe"
        ),
        u(
            "sweet. unrelated but whats a good nvim plugin for python linting, ive been on neovim on arch for years and never set one up properly lol",
            e("environment", "neovim"),
            e("environment", "arch"),
        ),
        u("cheers, ruff it is"),
    ),
    group(
        ("Priya", "Mateo"),
        by(
            "Priya",
            "ok we need to figure out the basement reno budget before we call the contractor. Mateo can you list what we actually want down there",
        ),
        by(
            "Mateo",
            "a bathroom, a bedroom for when my mom visits, and somewhere for my drum kit. I've played drums since high school, I'm not giving that up",
            e("skill", "Mateo", "drum", forbid=("user",)),
        ),
        by(
            "Priya",
            "fine but soundproofing then. also I work from home three days a week as a pharmacist doing telehealth consults so I need a quiet office somewhere",
            e("identity", "Priya", "pharmacist", forbid=("user",)),
        ),
        by(
            "Mateo",
            "bot can you give us a rough cost breakdown for Ottawa prices, like low and high",
        ),
        by("Priya", "and please remind us about permits, the city is strict"),
    ),
    chat(
        u(
            "act as a strict landlord. I am a tenant who is 2 weeks late on rent because I lost my job. stay in character and don't be nice"
        ),
        u(
            "'I understand, but I have lived here for 6 years and never missed a payment before, can we agree on a plan?'"
        ),
        u("ok stop the roleplay. how would a real tenant in ontario protect themselves here"),
    ),
    chat(
        u(
            "from now on when you give me recipes use grams and celsius please, im in NZ and the cup stuff does my head in",
            e("instruction", "gram"),
            e("fact", "nz"),
        ),
        u("ok give me a feijoa crumble recipe"),
        u("can i use gluten free flour, my partner is coeliac", e("relationship", "partner")),
        u("legend thanks"),
    ),
    chat(
        u(
            "can you tailor my cover letter for this job:\n\nSenior Registered Nurse – Intensive Care Unit\nUniversity Health Network, Toronto\nWe are looking for an experienced RN with a minimum of 3 years of critical care experience. You will provide direct care to critically ill patients, precept new graduates and participate in quality improvement initiatives. Requirements: BScN, CNO registration in good standing, ACLS.\n\nmy current letter is kind of generic"
        ),
        u(
            "context: I've been an ICU nurse at Hamilton General for four years and I precept new grads already, so lean on that",
            e("identity", "icu nurse"),
            e("fact", "hamilton general"),
            e("skill", "four year"),
        ),
        u("make the opening less cheesy"),
        u("good. shorter closing paragraph"),
        u("i need it under 300 words total"),
    ),
    chat(
        u(
            "quick question, if I contribute to my RRSP before march do i get the deduction for last year?"
        ),
        u("and TFSA vs RRSP if my income is around 62k, which first"),
        u(
            "ok. I'm 29 btw and self employed as an electrician so no workplace pension",
            e("identity", "29"),
            e("identity", "electrician"),
        ),
        u("how much should I put away a month to retire at 60 roughly"),
    ),
    chat(
        u(
            "I moved from Karachi to Manchester last month for my new job and I'm totally confused by council tax, do I have to pay it if I live in a shared house?",
            e("fact", "manchester", forbid=("karachi",)),
        ),
        u("my landlord says bills included, does that include council tax usually"),
        u("ok I'll ask him. also is it normal the boiler makes a banging noise at night"),
        u("thanks, I'll email the letting agent"),
    ),
    chat(
        u(
            "rewrite this email so it sounds more polite, it's from my sister to her landlord: 'Hi, I've been living in flat 3 since 2019 and the mould in my bedroom is getting worse. I have asthma and this is not acceptable. Fix it this week.'"
        ),
        u("a bit firmer than that, she's already asked twice"),
        u("perfect, she'll send it tonight"),
    ),
    chat(
        u(
            "give me a weekly meal prep plan, high protein. I'm vegetarian but I eat eggs and dairy, and I'm allergic to peanuts so no satay stuff",
            e("fact", "vegetarian"),
            e("fact", "peanut"),
        ),
        u(
            "I don't really like tofu texture, can you swap it for something else",
            e("preference", "tofu"),
        ),
        u("make a shopping list for it"),
        u("group it by supermarket aisle"),
    ),
    chat(
        u("what's a good beginner running plan, 0 to 5k in 8 weeks"),
        u(
            "one thing, I have type 1 diabetes and I'm on a pump, anything I should watch out for with hypos on runs?",
            e("fact", "type 1"),
        ),
        u("ok I'll talk to my diabetes nurse too. can you put the plan in a table with rest days"),
        u(
            "add a column for notes. long term i'd love to do a half marathon, maybe Wellington next year",
            e("goal", "half marathon"),
        ),
    ),
    chat(
        u(
            "my daughter Amara is 7 and she's struggling with times tables, any fun ways to practise at home that dont involve screens",
            e("relationship", "amara"),
        ),
        u("she likes music a lot so maybe songs?"),
        u("the 7 times table song is a hit lol. anything for 8s"),
    ),
    chat(
        u(
            "what's the difference between a will and a living trust in Canada? does Ontario even do living trusts"
        ),
        u("what happens if someone dies without a will in ontario"),
        u("ok and roughly what does a lawyer charge for a simple will"),
    ),
    chat(
        u(
            "Our dog Biscuit keeps chewing the skirting boards, he's a 1 year old lab cross. how do I stop it",
            e("relationship", "biscuit"),
        ),
        u("we already have chew toys, he ignores them"),
        u("what about bitter apple spray, does it actually work"),
        u("ok, and how do I fill the chewed bits of skirting, it's painted MDF"),
        u(
            "sanding first then? what grit. painting is my least favourite diy job ever so i want to do this once",
            e("preference", "painting"),
        ),
    ),
    chat(
        u(
            "my friend Kofi lives in Lagos and wants to move to Canada as a nurse, what's the process for internationally educated nurses in Ontario"
        ),
        u("how long does NNAS usually take"),
        u("does he need IELTS or is CELBAN enough"),
    ),
    chat(
        u(
            "write me a short bio for a gig poster. I'm a jazz pianist from Kingston, studied at Edna Manley College, and I play every friday at a spot in New Kingston",
            e("identity", "pianist"),
            e("fact", "kingston"),
            e("fact", "edna manley"),
        ),
        u("shorter, like 2 sentences"),
        u("less formal"),
        u("yes this one"),
    ),
    chat(
        u("how do i bleed a radiator"),
        u("the one in the back bedroom is cold at the top and warm at the bottom"),
        u(
            "ok done, water came out after the hiss. do i need to top up the pressure on the boiler now? gauge says 0.8"
        ),
        u("thanks, its up to 1.3 now"),
    ),
    chat(
        u(
            "I'm trying to get this regex to work, it should match canadian postal codes like K1A 0B1 with or without space\n\n^[A-Z]\\d[A-Z] \\d[A-Z]\\d$"
        ),
        u("also needs to be case insensitive"),
        u("perfect. in javascript how do I use the i flag with RegExp constructor"),
    ),
    chat(
        u(
            "Please answer me in simple English, I am Vietnamese and my English is not very good. Always use short sentences with me",
            e("identity", "vietnam"),
            e("instruction", "simple"),
        ),
        u(
            "I want to open a bank account in Melbourne. I am international student at RMIT. Which bank is good for student?",
            e("fact", "melbourne"),
            e("fact", "rmit"),
        ),
        u("What documents I need"),
        u("Thank you very much"),
    ),
    group(
        ("Kwame", "Efua"),
        by(
            "Kwame",
            "Efua let's ask it about the wedding budget. we have about 80k cedis total and my side alone wants to invite 200 people",
        ),
        by("Efua", "200 is crazy Kwame. my family is small, most of them live in London anyway"),
        by(
            "Kwame",
            "ok bot give us a budget split for a traditional engagement plus a church wedding in Accra, with 250 guests",
        ),
        by(
            "Efua",
            "and keep in mind I'm vegetarian so we need proper veg options, not just jollof without chicken",
            e("fact", "Efua", "vegetarian", forbid=("user",)),
        ),
        by(
            "Kwame",
            "lol fair. also I'm a civil engineer, I can manage the tent and chair rentals myself so reduce that line",
            e("identity", "Kwame", "civil engineer", forbid=("user",)),
        ),
        by("Efua", "thank you, this is actually helpful"),
    ),
    chat(
        u(
            "hi i'm 34, just started learning the violin 3 months ago as an adult, is it too late to get good? i practise like 30 min a day",
            e("identity", "34"),
            e("goal", "violin"),
        ),
        u("what should i focus on first, my bow keeps squeaking"),
        u("ok and any suggestions for easy pieces that sound nice"),
        u("i love celtic music actually, anything in that direction", e("preference", "celtic")),
    ),
    chat(
        u(
            "write a formal complaint letter to a car dealership. the car is a 2019 Honda CR-V, bought on 12 March, the transmission started slipping after 3 weeks and they keep saying it's normal"
        ),
        u("it's for my dad not me, he's not great with writing. sign it as Harold Beaumont"),
        u("add a line that we'll go to the Ombudsman if it's not sorted in 14 days"),
    ),
    chat(
        u(
            "ok weird question but how do i politely tell a guy from hinge i'm not interested after 2 dates"
        ),
        u("he's nice just no spark. i don't want to ghost him"),
        u("that's good but make it sound less like a press release lol"),
        u(
            "for the record i'm bisexual and i'm also talking to a girl so i'd rather keep things simple right now",
            e("identity", "bisexual"),
        ),
        u("thanks, sent it"),
    ),
    chat(
        u(
            "Explain the difference between capital gains and business income for crypto trading in Canada. I trade a bit on the side, nothing crazy"
        ),
        u("if I made 4k profit this year and I'm in BC, roughly how much tax", e("fact", "bc")),
        u("and I have some losses from 2022, can I carry those forward"),
    ),
    chat(
        u(
            "proofread this please: 'Dear parents, this week Year 6 will be visiting the Senedd on Thursday. Please ensure your child brings a packed lunch and wears school uniform. If you has any questions, please contact me.'"
        ),
        u(
            "thanks. I'm the year 6 teacher at a school in Swansea and this is my first year with a class of my own so I'm overchecking everything lol",
            e("identity", "teacher"),
            e("fact", "swansea"),
        ),
        u(
            "can you also make a welsh version, I'm learning welsh but not confident enough to write it myself yet",
            e("goal", "welsh"),
        ),
        u("diolch yn fawr"),
    ),
    chat(
        u(
            "I'm a pediatric resident, PGY2, at Aga Khan University Hospital in Karachi. Can you give me a quick table of paracetamol and ibuprofen doses by weight for kids",
            e("identity", "resident"),
            e("fact", "aga khan"),
        ),
        u("add max daily dose column"),
        u("and round to ml for 120mg/5ml suspension"),
        u("great, thanks"),
    ),
    chat(
        u(
            "bonjour, can you check my english in this message to my landlord? 'Hello Mr. Peterson, the heater in the living room is not working since tuesday. Could you send someone to repair it please? I am available every afternoon after 4pm.'"
        ),
        u("is 'is not working since tuesday' correct or should it be 'has not been working'"),
        u("ah yes in french we use present tense for this, i always make this mistake"),
        u(
            "merci. please always correct my english mistakes at the end of your answers, even when i dont ask, it helps me to learn",
            e("instruction", "correct"),
        ),
        u("ok what is the difference between 'since' and 'for'"),
    ),
    chat(
        u("what does it mean when the check engine light is flashing vs solid"),
        u("it's flashing and the car shakes at idle. 2014 mazda 3"),
        u("is it safe to drive 10 km to the garage"),
        u("ok ill get it towed. thanks"),
    ),
    chat(
        u(
            "I switched from VS Code to Zed last week and I can't find how to set a different font size for the terminal vs the editor",
            e("environment", "zed", forbid=("vs code",)),
        ),
        u(
            'here\'s my settings.json\n\n{\n  "buffer_font_size": 15,\n  "theme": "One Dark",\n  "vim_mode": true,\n  "terminal": {\n    "shell": "system"\n  }\n}'
        ),
        u(
            "got it. and is there a way to make the tab bar hidden, i like a really minimal editor with nothing on screen",
            e("preference", "minimal"),
        ),
    ),
    chat(
        u(
            "Hello. In Turkey we have very strict rent increase limit now, I am landlord of one small flat in Ankara and my tenant refuses increase above 25%. What are my options legally?",
            e("fact", "ankara"),
        ),
        u(
            "Can I ask for eviction because of my son needs the flat? He will marry next year",
            e("relationship", "son"),
        ),
        u("how long this process takes usually"),
    ),
    chat(
        u(
            "im building a little budgeting app for myself in flutter, just tracks bills and splits them with my flatmates. how should i structure the database, sqlite with drift?",
            e("project", "budget"),
            e("environment", "flutter"),
        ),
        u(
            "here's what I have so far\n\nclass Bills extends Table {\n  IntColumn get id => integer().autoIncrement()();\n  TextColumn get name => text()();\n  RealColumn get amount => real()();\n  DateTimeColumn get due => dateTime()();\n}\n\nshould amount be real or integer cents"
        ),
        u("ok cents it is. how do I do a many to many between bills and flatmates"),
        u(
            "nice, that compiles. thanks, im self taught so the db stuff is the part i suck at, been coding maybe 2 years in total",
            e("skill", "2 year"),
        ),
    ),
    chat(
        u(
            "can you summarise this for me in 3 bullet points:\n\n'The applicant, a registered nurse employed by the respondent health authority since 2011, alleges that she was dismissed following her complaints about unsafe staffing ratios on a surgical ward. The respondent contends that the dismissal was due to repeated medication errors documented over an eighteen-month period. The tribunal must decide whether the complaints constituted protected disclosures and, if so, whether they were the principal reason for dismissal.'"
        ),
        u("now explain what a protected disclosure is in UK employment law"),
        u(
            "I'm a paralegal at an employment law firm in Cardiff so you can be a bit technical",
            e("identity", "paralegal"),
            e("fact", "cardiff"),
        ),
        u("what's the time limit to bring a whistleblowing claim"),
    ),
    chat(
        u(
            "what's the cheapest way to send money from canada to ghana? i send my mum like 500 a month",
            e("relationship", "mum"),
        ),
        u("wise vs remitly vs sendwave"),
        u(
            "ok and do i have to report that to CRA somehow? i'm a medical lab technologist at a hospital in Calgary if that matters",
            e("identity", "lab technologist"),
            e("fact", "calgary"),
        ),
    ),
    group(
        ("Aroha", "Liam", "Sione"),
        by(
            "Liam",
            "ok team, trip planning time. we're driving Auckland to Wellington over Labour weekend, need a route with good stops",
        ),
        by(
            "Aroha",
            "I get carsick on windy roads so not the Forgotten World Highway pls",
            e("fact", "Aroha", "carsick", forbid=("user",)),
        ),
        by("Sione", "can we stop in Taupo, my aunty lives there and she'll feed us"),
        by(
            "Liam",
            "sweet. I've got a Prius so fuel's not an issue, but who's driving the Desert Road leg",
        ),
        by("Aroha", "not me, I only got my restricted licence in June"),
        by(
            "Sione",
            "I'll drive, I've been driving trucks for work for like 8 years, Desert Road is nothing",
            e("skill", "Sione", "truck", forbid=("user",)),
        ),
        by("Liam", "bot give us a plan with times, leaving Friday 4pm"),
    ),
    chat(
        u(
            "I taught in Toronto for 5 years but moved to Ottawa this fall, now teaching high school chemistry here and I need a quick lab safety quiz for grade 11, 10 multiple choice questions",
            e("identity", "chemistry"),
            e("fact", "ottawa", forbid=("toronto",)),
        ),
        u("add an answer key at the end"),
        u("make question 4 harder"),
        u("good. can you also make a french version, we have some french immersion kids"),
    ),
    chat(
        u(
            "is it normal to feel so exhausted after switching from days to nights? I'm a healthcare assistant and just started rotating nights 4 weeks ago",
            e("identity", "healthcare assistant"),
        ),
        u("what should i eat at like 3am so i don't crash"),
        u("i can't have dairy, lactose intolerant", e("fact", "lactose")),
        u("thanks, I'll try the oats thing"),
    ),
    chat(
        u(
            "rewrite this paragraph for a personal statement, it sounds too robotic: 'I am passionate about medicine. I have volunteered at a hospital. I want to help people. I believe I would be a good doctor because I am hardworking.'"
        ),
        u("it's for my younger brother's application, he's applying to med school in Ireland"),
        u("more specific examples? he volunteered at a hospice in Lahore for 2 summers"),
        u("ok perfect"),
    ),
    chat(
        u(
            "Ciao, I want to buy a used car in Toronto, I just arrived from Milano in september with a work permit. Do I need an Ontario licence or can I drive with my italian one?",
            e("fact", "toronto"),
            e("identity", "milan"),
        ),
        u("how long is the italian licence valid here"),
        u("and the insurance is so expensive for newcomers, any tips"),
        u(
            "i am 41 and i have 20 years driving without accidents, does that count?",
            e("identity", "41"),
        ),
    ),
    chat(
        u(
            "I'm writing a thriller novel set in Halifax, about a nurse who discovers her hospital is covering up deaths. can you help me outline act two",
            e("project", "thriller"),
        ),
        u("the main character is called Shannon, she's 38, divorced, has a teenage son"),
        u("I like the idea of the anonymous letter. can you make the midpoint twist bigger"),
        u(
            "I've been stuck on this book for about a year so this is really helpful. I was an ER nurse for 25 years before I retired so the medical bits I can do myself",
            e("identity", "nurse"),
            e("skill", "25"),
        ),
        u("make a chapter list for act two with 1 line each"),
    ),
    chat(
        u(
            "when I run npm run build I get this\n\n> web@0.1.0 build\n> tsc && vite build\n\nsrc/components/Chart.tsx:14:23 - error TS2322: Type 'number | undefined' is not assignable to type 'number'.\n  Type 'undefined' is not assignable to type 'number'.\n\n14       <Bar height={props.height} data={data} />\n                         ~~~~~~\n\nFound 1 error in src/components/Chart.tsx:14"
        ),
        u("i don't want a default, the prop should be required"),
        u("done, builds now"),
    ),
    chat(
        u("what are the signs of sepsis in elderly patients that are easy to miss"),
        u(
            "I work in a nursing home in Auckland as an enrolled nurse and we had a near miss last week, I want to make a poster for the care assistants",
            e("identity", "enrolled nurse"),
            e("fact", "auckland"),
        ),
        u("make it simple, a lot of our staff have english as a second language"),
        u("can you add a traffic light system, green amber red"),
    ),
    chat(
        u("pretend you are my grandmother from Jamaica and tell me a bedtime story about Anansi"),
        u("more patois!! lol"),
        u(
            "that was beautiful, my grandma used to tell me exactly that one before she passed",
            e("relationship", "grand"),
        ),
    ),
    chat(
        u(
            "bonjour, I am a french teacher in a secondary school in Leeds, originally from Lyon. I need a fun activity for year 9 on the passé composé with être",
            e("identity", "french teacher"),
            e("fact", "leeds"),
            e("identity", "lyon"),
        ),
        u("the DR MRS VANDERTRAMP thing they find boring, something more active please"),
        u("yes the house drawing idea is good, can you give me the worksheet"),
        u(
            "and please write your answers in british english, not american, it matters for my school docs",
            e("instruction", "british"),
        ),
    ),
    chat(
        u("how do I replace a toilet fill valve, it keeps running"),
        u("it's a fluidmaster 400 I think"),
        u("i have no idea what size nut is on the supply line, do i need a special wrench"),
        u("done!! first time doing plumbing and nothing flooded lol"),
    ),
    chat(
        u(
            "Hi, I have an interview for a junior associate position at a corporate law firm in Islamabad next week. Can you ask me mock interview questions one by one?",
            e("goal", "associate"),
        ),
        u(
            "I graduated LLM from University of London last year through the external programme",
            e("fact", "llm"),
            e("fact", "london"),
        ),
        u(
            "Answer: 'I am interested in your firm because of your work in energy projects and I believe my research on power purchase agreements is relevant.'"
        ),
        u("how was that answer, be honest"),
        u("next question"),
    ),
    chat(
        u("what's the best string gauge for drop D on a Les Paul"),
        u("i mostly play metal, downtuned stuff", e("preference", "metal")),
        u(
            "10-52 then? ok thanks. been playing like 12 years and never really thought about it lol",
            e("skill", "12"),
        ),
    ),
    chat(
        u(
            "I need a script that renames all jpgs in a folder to their exif date, like 2024-05-17_142233.jpg. windows, I'd prefer powershell over python if possible",
            e("environment", "windows"),
        ),
        u(
            'it errors: Exception calling "GetPropertyItem" with "1" argument(s): "Property cannot be found."'
        ),
        u("some of the photos are screenshots with no exif, just skip those"),
        u("works. ty"),
    ),
    group(
        ("Tunde", "Sarah"),
        by(
            "Sarah",
            "ok bot, Tunde and I are trying to split our bills fairly. I make 54k and he makes 88k, rent is 2400",
        ),
        by(
            "Tunde",
            "proportional sounds fair to me. but we should also count that I'm paying off my student loans, still about 30k left",
            e("fact", "Tunde", "student loan", forbid=("user",)),
        ),
        by(
            "Sarah",
            "true. and I'm going back to school part time in January for my MBA so my income might drop",
            e("goal", "Sarah", "mba", forbid=("user",)),
        ),
        by("Tunde", "can you show us both options, 50/50 and proportional, in a table"),
        by("Sarah", "add groceries 800 and utilities 250"),
    ),
    chat(
        u(
            "Xin chào, can you help me write a text to my boyfriend's parents for Christmas? They are Canadian and I want to be polite but warm",
            e("relationship", "boyfriend"),
        ),
        u(
            "we met in Vancouver two years ago, he is very nice. I want to mention I am happy to meet them at last"
        ),
        u("more short please"),
        u("perfect, thank you"),
    ),
    chat(
        u(
            "I'm a Ghanaian trained nurse, got my diploma in Kumasi, now studying for my NCLEX and I keep getting prioritisation questions wrong. Can you give me 5 practice ones with rationales",
            e("goal", "nclex"),
            e("identity", "ghana"),
            e("identity", "nurse"),
        ),
        u("I got 3 and 5 wrong. explain ABCs vs Maslow again"),
        u("5 more please, harder"),
        u("ok better, 4/5"),
    ),
    chat(
        u(
            "write a product description for a handmade shea butter body cream, 200ml, unscented, for an etsy shop"
        ),
        u(
            "it's my own small business, I make everything in my kitchen in Tema and ship to the UK and US",
            e("project", "business"),
            e("fact", "tema"),
        ),
        u("add that it's suitable for eczema prone skin but don't make medical claims"),
        u("lovely"),
    ),
    chat(
        u(
            "hi, I'm Emre, software engineer in Istanbul, I use Go at work but I want to switch to Rust for a side project, a small CLI to back up my photos to S3. where do I start?",
            e("identity", "emre"),
            e("identity", "software engineer"),
            e("fact", "istanbul"),
            e("environment", "go"),
            e("project", "s3"),
        ),
        u("what crate for s3"),
        u("ok and how to walk a directory recursively"),
        u("tokio or not, it's only a cli"),
    ),
)
