# ruff: noqa: E501  (message texts are data: kept on one line each)
"""The third blind batch of English conversations of the extraction evaluation set (ids
`en-blind3-*`, split `heldout`, never used for tuning): chats shaped like real assistant exports
(lower case, typos, pasted code, tracebacks, e-mails, job ads, notes, role-play and texts to
translate or proofread, hypotheticals, talk about other people, group chats) from speakers of
several backgrounds, where about one user message in three holds a memory. They were written
blind, without reading the extractor, its tests, the benchmark or any other conversation of the
set; only the shape in `turns.py` was used."""

from __future__ import annotations

from typing import Final

from turns import Conversation, by, chat, e, group, u

CONVERSATIONS: Final[tuple[Conversation, ...]] = (
    chat(
        u(
            "hey can you help me write a cover letter for a junior data analyst role at a logistics company? i've been working as a pharmacy technician at boots for 3 years and i'm trying to switch into data, did the google data analytics cert last spring",
            e("identity", "pharmacy tech"),
            e("fact", "Boots"),
            e("goal", "data"),
        ),
        u("make it less formal, it sounds like a robot wrote it lol"),
        u(
            "also the job post says they want SQL and Tableau, can you work that in more. here's the post:\n\nJunior Data Analyst – Northfield Freight Ltd\nLocation: Daventry (hybrid)\nWe are looking for a curious analyst to join our network planning team. You will build dashboards in Tableau, write SQL against our Snowflake warehouse and present findings to operations managers.\nRequirements: 1+ years SQL, Excel, strong communication. Nice to have: Python, experience in logistics.\nSalary: £26,000–£29,000"
        ),
        u("perfect thanks. i'll tweak the last para myself"),
    ),
    chat(
        u(
            "why does this throw\n\nTraceback (most recent call last):\n  File \"/home/dev/proj/etl.py\", line 42, in <module>\n    df = pd.merge(orders, customers, on='customer_id', how='left')\n  File \"/usr/lib/python3.11/site-packages/pandas/core/reshape/merge.py\", line 148, in merge\n    op = _MergeOperation(\n  File \"/usr/lib/python3.11/site-packages/pandas/core/reshape/merge.py\", line 737, in __init__\n    ) = self._get_merge_keys()\nKeyError: 'customer_id'\n\ni checked and both dataframes have the column"
        ),
        u(
            "oh wait orders has 'Customer_ID' with caps. ok. is there a way to lowercase all columns at once"
        ),
        u(
            "nice. and i want the function to return a list of the rows that didnt match, not print them"
        ),
    ),
    chat(
        u(
            "good evening. please I need a simple budget spreadsheet template for a family of five, me my wife and our three kids, we live in Ibadan so the prices should be in naira",
            e("relationship", "wife"),
            e("relationship", "three"),
            e("fact", "Ibadan"),
        ),
        u(
            "the categories should be school fees, foodstuff, fuel for generator, transport, church offering, savings. we dont use credit card"
        ),
        u(
            "can you also add a column for my side business, I sell fabric (ankara and lace) on weekends at Bodija market",
            e("project", "fabric"),
        ),
        u("thank you so much, God bless"),
    ),
    chat(
        u(
            "translate to spanish pls, it's for my neighbour, she doesnt speak english and wants to send it to her landlord:\n\nHi Mr. Ortega, I'm writing because the boiler in flat 3 stopped working on Sunday. I have two small children and it is very cold at night. Could you send someone this week? I'm at home every day after 4pm. Thanks, Marta"
        ),
        u("can you make it a bit more polite, he's an old man"),
        u("gracias! lol that's about all my spanish"),
    ),
    chat(
        u(
            "hi, i am 27 and working as a QA engineer in an MNC in pune, planning to shift to bangalore next month for a new job at a fintech startup. what are the good areas to stay near outer ring road? budget 25k for 1bhk",
            e("identity", "27"),
            e("identity", "QA"),
            e("fact", "Pune"),
            e("goal", "Bangalore"),
        ),
        u("i dont have a vehicle so metro or office cab access matters"),
        u("what about bellandur vs marathahalli, which has less traffic lol i know both are bad"),
        u(
            "ok and is it better to take a flat with friends or alone, i am vegetarian so sometimes sharing with non veg people is issue for cooking",
            e("fact", "vegetarian"),
        ),
    ),
    chat(
        u(
            "act as a 45 year old fisherman from Cornwall who has lived there his whole life and is being interviewed about the decline of the pilchard industry. stay in character. first question: how long have you been fishing?"
        ),
        u("what did your father think about the EU quotas"),
        u(
            "ok break character. that was great, can you write up the interview as a 600 word feature article"
        ),
    ),
    chat(
        u(
            "from now on please give me all measurements in metric, I'm Irish and I can never picture feet and inches",
            e("instruction", "metric"),
            e("identity", "Irish"),
        ),
        u("so how big is a king size bed"),
        u("and a standard door?"),
    ),
    chat(
        u(
            "proofread this, it's my cousin's personal statement, he asked me to check it. just grammar dont change his style:\n\nWhen I was ten my family moved from Lagos to Manchester and I remember the first winter was the coldest thing I have ever feeled. My mother worked two jobs as a carer and my older brother who was fifteen had to look after me and my sister after school. I didnt speak much at school because my accent was different and the other kids would laugh. Now I am in year 13 and I want to study medicine at university, because I seen how hard my mother worked in care homes and I want to help people like the ones she looked after."
        ),
        u("he's applying to Leeds and Newcastle, do you think the ending is strong enough"),
        u("thanks, I'll send it back to him"),
    ),
    chat(
        u(
            "i finally moved from vscode to neovim last month, can you help me set up lazy.nvim with a python LSP? i'm on arch btw",
            e("environment", "neovim", forbid=("vscode",)),
            e("environment", "arch"),
        ),
        u(
            "here's my init.lua so far:\n\nvim.g.mapleader = ' '\nlocal lazypath = vim.fn.stdpath('data') .. '/lazy/lazy.nvim'\nif not vim.loop.fs_stat(lazypath) then\n  vim.fn.system({ 'git', 'clone', '--filter=blob:none', 'https://github.com/folke/lazy.nvim.git', lazypath })\nend\nvim.opt.rtp:prepend(lazypath)\nrequire('lazy').setup({})\n\nwhat do i put in setup"
        ),
        u("pyright or basedpyright? i mostly write django at work", e("environment", "django")),
        u("ok it works but the completion popup is ugly, can i make it have borders"),
    ),
    group(
        ("Priya", "Tom"),
        by(
            "Priya",
            "ok so we need to plan the team offsite, I'm thinking Lisbon in March? I've been twice and loved it",
            e("preference", "Priya", "Lisbon", forbid=("user",)),
        ),
        by(
            "Tom",
            "lisbon works for me but keep in mind I'm coeliac so restaurants need gluten free options",
            e("fact", "Tom", "coeliac", forbid=("user",)),
        ),
        by(
            "Priya",
            "noted. can you draft an email to the team with 3 date options and ask about dietary needs",
        ),
        by(
            "Tom", "also add that flights should be booked through the travel portal not personally"
        ),
        by(
            "Tom",
            "and I'm bringing my partner for the weekend after, so don't book me on the friday return",
            e("relationship", "Tom", "partner", forbid=("user",)),
        ),
    ),
    chat(
        u(
            "if i lived in japan, how much would a typical 1 bedroom apartment in osaka cost per month? just curious, daydreaming lol"
        ),
        u("and what would a salary for a software dev be there"),
        u(
            "ok i'm not moving anytime soon, kids are settled in school here in Ohio",
            e("fact", "Ohio"),
            e("relationship", "kid"),
        ),
    ),
    chat(
        u(
            "my dog biscuit (a 4 yo beagle) keeps eating grass and then throwing up, should I be worried?",
            e("relationship", "Biscuit"),
        ),
        u("he's also been scratching his ears a lot"),
        u("ok we'll book the vet for tomorrow. what should I ask them"),
    ),
    chat(
        u(
            "I'm trying to get this regex to work for UK postcodes: ^[A-Z]{1,2}[0-9][A-Z0-9]? ?[0-9][A-Z]{2}$ but it fails on 'sw1a 1aa'"
        ),
        u("I need it to accept lowercase too, and I want it to return the outward code as a group"),
        u("I like the second version better. can you explain the lookahead part"),
    ),
    chat(
        u(
            "i speak portuguese and spanish fluently and have been learning german for about a year, can you quiz me on the dative case",
            e("skill", "portuguese"),
            e("skill", "spanish"),
            e("goal", "german"),
        ),
        u("der Mann gibt dem Kind den Ball?"),
        u("ugh. ok another one, harder"),
        u("ich habe meinem Bruder ein Buch gegeben"),
    ),
    chat(
        u(
            "what's a good breakfast for someone with type 2 diabetes who doesn't like eggs? I was diagnosed in january and I'm still figuring it out",
            e("fact", "diabet"),
            e("preference", "egg"),
        ),
        u(
            "can you make a 7 day plan, I work night shifts as a nurse so breakfast is at like 7pm",
            e("identity", "nurse"),
        ),
        u("swap out the oats on day 3 and 5 for something else"),
    ),
    chat(
        u(
            "rewrite this email so it sounds less passive aggressive:\n\nHi Karen,\n\nAs per my last email, the figures were due on Friday. I have now had to delay the board pack for the third time. I would appreciate it if, going forward, you could let me know in advance when deadlines will be missed.\n\nRegards"
        ),
        u("still a bit cold. warmer but still firm"),
        u("great. shorter?"),
    ),
    chat(
        u(
            "hi! i'm Alex, they/them. I run a small queer book club in Bristol and need a name for it, something punny",
            e("identity", "Alex"),
            e("identity", "they/them"),
            e("project", "book club"),
            e("fact", "Bristol"),
        ),
        u("more like the third one"),
        u("lol 'Spine Chillers' is taken by a horror club near us. more options?"),
        u("we read mostly sci-fi and fantasy in the club, in case that helps"),
    ),
    chat(
        u(
            "been doing woodworking as a hobby for about 6 years, mostly hand tools. want to build a workbench for my garage, roubo style. can you give me a cut list for 8ft length",
            e("skill", "woodwork"),
        ),
        u("assume no jointer for this, just a table saw and a router"),
        u("what wood, pine or ash? ash is pricey here"),
    ),
    chat(
        u("who said 'I have not failed. I've just found 10,000 ways that won't work'?"),
        u("is that actually verified or is it one of those fake internet quotes"),
        u("ok what about 'be the change you wish to see in the world'"),
    ),
    chat(
        u(
            "quick update for context, i left deloitte in september and i'm now at a 20-person climate startup as their first product manager",
            e("fact", "climate", forbid=("deloitte",)),
            e("identity", "product manager"),
        ),
        u(
            "i need a 30-60-90 day plan, they have no PM process at all, engineers just build what the CEO says"
        ),
        u("make the 90 day part more concrete"),
        u("can you put it in a table"),
    ),
    chat(
        u("what's the craic, bored at work"),
        u(
            "tell me a joke about accountants, i am one so it's allowed",
            e("identity", "accountant"),
        ),
        u("haha grand. another"),
    ),
    chat(
        u(
            "getting this in my react app\n\nUncaught TypeError: Cannot read properties of undefined (reading 'map')\n    at ProductList (ProductList.jsx:14:22)\n    at renderWithHooks (react-dom.development.js:16305:18)\n    at mountIndeterminateComponent (react-dom.development.js:20074:13)\n\nconst ProductList = ({ products }) => {\n  return (\n    <ul>\n      {products.map(p => <li key={p.id}>{p.name}</li>)}\n    </ul>\n  );\n};"
        ),
        u("the data comes from a fetch in useEffect in the parent"),
        u("ok so default to []. should i use react query instead, everyone keeps saying it"),
    ),
    chat(
        u(
            "im a second year mech eng student at IIT Madras and need help understanding the difference between stress and strain in simple words",
            e("fact", "mech", "Madras"),
        ),
        u("ok and young's modulus?"),
        u("can you give me 3 practice problems with answers hidden at the end"),
    ),
    chat(
        u(
            "I'm the best man at my brother's wedding in june and need help with the speech. his name is Connor, he's marrying Aisling, they met at a pub quiz in Galway",
            e("relationship", "Connor"),
        ),
        u(
            "some stories: he once drove to Cork with the handbrake on the whole way. he cried at Marley and Me. he's a primary school teacher"
        ),
        u("make it about 4 minutes and not too cheesy"),
        u("swap the ending, I want to finish with a toast to both mams"),
    ),
    chat(
        u(
            "recommend some albums like In Rainbows? I love radiohead but can't stand their early stuff, too whiny",
            e("preference", "Radiohead"),
        ),
        u("already know portishead lol"),
        u("ooh the notwist, never heard of them. what's their best one"),
    ),
    chat(
        u(
            "please always reply in bullet points and keep it under 150 words unless I ask for more, I read these on my phone between meetings",
            e("instruction", "bullet"),
        ),
        u("what are the main differences between a roth ira and a traditional ira"),
        u("which one makes more sense if i expect to earn more later"),
    ),
    chat(
        u(
            "hello, i am from Vietnam and study master of finance in Melbourne. my english is not so good, please help me to correct this paragraph for my assignment: 'The company have increase its revenue in 2022 because the demand of the market is grow rapidly after covid.'",
            e("identity", "Vietnam"),
            e("fact", "Melbourne"),
            e("fact", "finance"),
        ),
        u(
            "thank you. and this one: 'In conclusion, the investor should considering both risk and return before make decision.'"
        ),
        u("why is 'should consider' and not 'should considering'? in my language verb not change"),
    ),
    chat(
        u(
            "my mum has early stage dementia and lives with us now, any tips for making the house safer for her?",
            e("relationship", "dementia"),
        ),
        u("she keeps trying to go out at night"),
        u("what about the stairs, we have a really steep one"),
    ),
    group(
        ("Chidi", "Ngozi", "Emeka"),
        by(
            "Ngozi",
            "Let's plan mummy and daddy's 40th anniversary. I'm in Abuja so I can handle the venue side",
            e("fact", "Ngozi", "Abuja", forbid=("user",)),
        ),
        by(
            "Emeka",
            "I'll do the cake. my wife bakes so she can sort it",
            e("relationship", "Emeka", "wife", forbid=("user",)),
        ),
        by(
            "Chidi",
            "I'm stuck in Houston till August, can someone ask the AI for a programme of events for the day",
            e("fact", "Chidi", "Houston", forbid=("user",)),
        ),
        by(
            "Ngozi",
            "yes, something like thanksgiving service at 10, reception at 2. maybe 150 guests",
        ),
        by(
            "Emeka",
            "include a slot for the grandchildren to perform. and no alcohol at the high table pls, daddy doesnt drink anymore",
        ),
    ),
    chat(
        u(
            "i'm vegan and hate mushrooms, give me a high protein dinner that takes under 30 min",
            e("fact", "vegan"),
            e("preference", "mushroom"),
        ),
        u("what can i use instead of tofu, i have tempeh"),
        u("double it for 4 people"),
    ),
    chat(
        u(
            "write me a postgres query: for each customer, their total spend in the last 90 days and their most recent order date, only customers with > 3 orders"
        ),
        u(
            "the orders table is orders(id, customer_id, total_cents, created_at) and customers(id, email, country)"
        ),
        u("I want amounts in dollars not cents, 2 decimals"),
        u("perfect, now make it a view"),
    ),
    chat(
        u(
            "I signed up for the Dublin marathon in October, my first one. I currently run about 25k a week. can you build me a plan",
            e("goal", "marathon"),
        ),
        u("I can only do long runs on sundays because of work"),
        u(
            "I'm 41 and had a knee op two years ago so don't go crazy",
            e("identity", "41"),
            e("fact", "knee"),
        ),
    ),
    chat(
        u(
            "my macbook air m2 is crawling since the sonoma update, anything I can do before I wipe it?",
            e("environment", "macbook"),
        ),
        u("activity monitor shows 'kernel_task' at 300%"),
        u("it's mostly when it's charging with the external monitor plugged in"),
    ),
    chat(
        u(
            "write a short story in first person, narrator is a 70 year old woman in Kerala who just learned to use a smartphone to video call her grandson in Canada"
        ),
        u("make her funnier and more stubborn"),
        u("nice. can you end it with her teaching the neighbour"),
    ),
    chat(
        u(
            "i'm building a habit tracker app in flutter as a side project, want to add streaks. how should i model it in sqlite?",
            e("project", "habit"),
            e("environment", "flutter"),
        ),
        u(
            "here's my current table\n\nCREATE TABLE habits (\n  id INTEGER PRIMARY KEY,\n  name TEXT NOT NULL,\n  created_at TEXT NOT NULL\n);\nCREATE TABLE checkins (\n  habit_id INTEGER REFERENCES habits(id),\n  day TEXT NOT NULL\n);"
        ),
        u("what about timezones, if someone travels"),
        u("ok write the dart function that computes the current streak"),
    ),
    chat(
        u(
            "what does 'saudade' actually mean, my girlfriend keeps saying it",
            e("relationship", "girlfriend"),
        ),
        u("is there an english equivalent"),
        u("how do i say 'i miss you too' back in portuguese"),
    ),
    chat(
        u(
            "can you tidy up this job ad:\n\nSenior Backend Engineer (Go) - Remote UK\nWe're a 40 person healthtech company. you'll own our claims processing service, written in Go, on AWS (ECS, RDS postgres, SQS). must have: 5+ yrs backend, Go or willingness to learn it fast, postgres. bonus: kafka, healthcare data, HL7/FHIR. £85-100k + equity, 30 days holiday"
        ),
        u("make it sound less like a list and more human"),
        u("remove the equity mention, legal hasn't approved it yet"),
    ),
    chat(
        u(
            "i've played piano for 20 years (classical mostly) and just bought a cheap guitar. is there a shortcut for learning chords if you already read music?",
            e("skill", "piano"),
            e("goal", "guitar"),
        ),
        u("my fingertips hurt so much lol is that normal"),
        u("give me 4 easy songs with just G C D Em"),
    ),
    chat(
        u("is a hot dog a sandwich"),
        u("what about a taco then"),
        u("ok you're just being diplomatic"),
    ),
    chat(
        u(
            "I was born in Kingston, Jamaica but grew up in Birmingham from age 6. my kid's doing a school project on family heritage, can you suggest some jamaican traditions she could present?",
            e("fact", "Kingston"),
            e("fact", "Birmingham"),
        ),
        u("she's 9 so keep it simple"),
        u("what food could we make together that's not too spicy"),
    ),
    group(
        ("Sam", "Jess"),
        by(
            "Sam",
            "right we need to sort the bills spreadsheet for the flat, I'll paste the numbers",
        ),
        by(
            "Jess",
            "electric is £94 a month, internet £32, council tax £140. I work from home so happy to pay a bit more on electric",
            e("fact", "Jess", "home", forbid=("user",)),
        ),
        by(
            "Sam",
            "that's fair. I'm away most weekends at my girlfriend's in Leeds anyway",
            e("relationship", "Sam", "girlfriend", forbid=("user",)),
        ),
        by("Jess", "can you split it 55/45 and show monthly per person"),
        by(
            "Sam",
            "also I've just gone vegetarian so maybe we stop the shared meat budget lol",
            e("fact", "Sam", "vegetarian", forbid=("user",)),
        ),
    ),
    chat(
        u(
            "pod stuck in CrashLoopBackOff, logs:\n\n2026-03-02T10:14:22Z ERROR  Failed to connect to redis at redis-master:6379: dial tcp: lookup redis-master on 10.96.0.10:53: no such host\n2026-03-02T10:14:22Z FATAL  startup aborted\n\nthe redis is in a different namespace"
        ),
        u("so redis-master.cache.svc.cluster.local?"),
        u("works. why doesn't it resolve short names across namespaces"),
        u(
            "we run everything on EKS btw, 1.29, in case that changes anything",
            e("environment", "EKS"),
        ),
    ),
    chat(
        u(
            "my son is in year 4 and struggling with long division, how can i explain it to him without confusing him more",
            e("relationship", "son"),
        ),
        u("they teach the bus stop method at his school apparently"),
        u("can you make 10 practice questions, easy to hard"),
    ),
    chat(
        u(
            "answer me in british english spelling please, not american, for everything",
            e("instruction", "british"),
        ),
        u("write a product description for a handmade soy candle, scent is fig and cedar"),
        u("shorter, for an etsy listing"),
    ),
    chat(
        u("write a poem from the perspective of a lighthouse keeper who is lonely but proud"),
        u("rhyming please, ABAB"),
        u("lol that's a bit dark. more hopeful ending"),
    ),
    chat(
        u(
            "so we finally moved from London to Edinburgh last weekend!! need help finding a GP, how does registering work in scotland?",
            e("fact", "Edinburgh", forbid=("London",)),
        ),
        u("do I need proof of address, all my bills still have the old address"),
        u("and a dentist, same process?"),
    ),
    chat(
        u("excel formula to pull the last non-empty value in column C"),
        u("it returns #N/A when the column has text"),
        u("my boss wants it to also ignore zeros"),
    ),
    chat(
        u(
            "I'm 63 and retiring from the council next spring after 31 years in housing. I want to volunteer somewhere I can use my skills, any ideas?",
            e("identity", "63"),
            e("goal", "volunteer"),
            e("fact", "council"),
        ),
        u(
            "I'm not keen on anything that's mainly fundraising, I hate asking people for money",
            e("preference", "fundrais"),
        ),
        u("tell me more about the citizens advice one"),
    ),
    chat(
        u(
            "been writing C# for 12 years but totally new to rust. what's the mental model for borrowing compared to references in C#?",
            e("skill", "C#"),
            e("goal", "rust"),
        ),
        u("so &mut is like ref but only one at a time?"),
        u("show me a linked list in rust, i heard they're hard"),
        u(
            "lol ok i'll avoid that. how do i set up rust-analyzer on windows, i have visual studio 2022 installed",
            e("environment", "windows"),
        ),
    ),
    chat(
        u(
            "my friend lives in Toronto and wants to visit me in Austin for a week in may, what should we do together?",
            e("fact", "Austin"),
        ),
        u("she loves live music and bbq, hates crowds"),
        u("we don't want to drive much"),
    ),
    chat(
        u(
            "I want to write a letter to my appa for his 60th birthday, he doesn't read english well so can you help me in simple tamil? I can speak tamil but my writing is weak",
            e("skill", "tamil"),
        ),
        u("start with 'அன்புள்ள அப்பா'"),
        u("add that I'm proud he learnt to drive at 58"),
    ),
    chat(
        u(
            "need a new show. loved the bear, succession, severance. hate anything with zombies",
            e("preference", "Succession"),
            e("preference", "zombie"),
        ),
        u("already seen slow horses"),
        u("what's shogun like, is it too violent"),
    ),
    chat(
        u(
            "summarise these notes into action items:\n\nSync 12/03 – attendees: Mo, Fatima, Greg, me\n- Greg: migration to new CRM slipping 2 wks, vendor issue\n- Fatima to chase vendor by Thu\n- Mo: Q2 campaign brief needs sign off, I said I'd review by Fri\n- pricing page copy – Greg thinks too long, agreed to cut 30%\n- next sync 19/03"
        ),
        u("put owners in bold"),
        u("and a one line summary at the top for my manager"),
    ),
    chat(
        u(
            "I teach year 9 science at a comprehensive in Swansea. Whenever I ask for explanations, pitch them at a 14 year old level unless I say otherwise",
            e("identity", "teach"),
            e("fact", "Swansea"),
            e("instruction", "14"),
        ),
        u("explain why the sky is blue"),
        u("and sunsets red"),
        u("good. now a 5 question quiz on it"),
    ),
    chat(
        u(
            "help me pick a gift for my husband's birthday, he's really into cycling and coffee, budget £100. we're both german but live in Bath so shipping from germany is an option",
            e("relationship", "husband"),
            e("identity", "German"),
            e("fact", "Bath"),
        ),
        u("he already has a hario v60"),
        u("the cycling cap idea is cute, where can i get a custom one"),
    ),
    chat(
        u(
            "long term I want to open a small bakery, probably in 5 years once I've saved up. what should I be learning now?",
            e("goal", "bakery"),
        ),
        u(
            "I'm a line cook right now so I know kitchen stuff but nothing about business",
            e("identity", "line cook"),
        ),
        u("is a business course worth it or just youtube"),
        u("ok make me a reading list, max 5 books"),
    ),
    chat(
        u("explain p-values like I'm five"),
        u("ok like I'm a smart fifteen year old"),
        u("is 0.049 really different from 0.051"),
    ),
    group(
        ("Lena", "Marco"),
        by(
            "Lena",
            "Hi, we are preparing a presentation for our client in Munich, can you help with slides structure? Topic is reducing warehouse energy cost",
        ),
        by(
            "Marco",
            "I will present the numbers part, Lena the intro. keep my slides with less text please, I will talk over them",
        ),
        by("Lena", "Marco is too modest, he did his PhD in Milan on energy systems"),
        by(
            "Marco",
            "haha thanks. I joined the company only in january, before I was at Siemens 6 years",
            e("fact", "Marco", "Siemens", forbid=("user",)),
        ),
        by("Lena", "ok so 10 slides max, 20 minutes. please propose titles"),
    ),
    chat(
        u(
            "abeg help me fix this CV summary, I'm a civil engineer with 7 years in road construction, currently with Julius Berger in Port Harcourt but I want to relocate to Canada through express entry",
            e("identity", "civil engineer"),
            e("fact", "Julius Berger"),
            e("goal", "Canada"),
        ),
        u(
            "the summary is:\n\nResult-oriented Civil Engineer with proven track record of delivering projects on time and within budget. Skilled in AutoCAD, Civil 3D and MS Project. Team player with excellent communication skills."
        ),
        u("they say canadian recruiters hate 'result-oriented' lol is that true"),
        u("should I put my IELTS score on it or leave it for the application"),
    ),
    chat(
        u(
            "switched from android to an iphone 15 last week after like 10 years of samsung, how do i get my whatsapp chats across",
            e("environment", "iphone", forbid=("samsung",)),
        ),
        u("it says the move to ios app needs both on same wifi, they are"),
        u("ok it worked!! now how do i turn off the stupid keyboard click sound"),
        u("and can the notifications show as a list instead of stacked"),
    ),
    chat(
        u(
            "I'm writing a fantasy novel, about 60k words in, set in a city built on the back of a giant turtle. I'll paste chapters over the next weeks — when I do, don't rewrite anything, only point out plot holes and pacing issues",
            e("project", "novel"),
            e("instruction", "plot hole"),
        ),
        u(
            "here's chapter 3:\n\nThe bells of Carapace rang twice before dawn, which meant the turtle had turned east again. Mira pulled her coat tighter and ran down the spiral stair, past the fishmongers who were already cursing the tilt of the streets. 'You're late,' said Oren, not looking up from his ledger. 'The turtle's early,' she said. He didn't laugh. He never laughed before the third bell."
        ),
        u(
            "good catch on the bells thing. what about Mira's motivation, is it clear why she leaves"
        ),
    ),
    chat(
        u(
            "bhai explain mutual funds vs FD in simple words, and in general keep answers short, I don't like long paras",
            e("instruction", "short"),
        ),
        u("what is SIP then"),
        u("ok if i put 5k monthly for 10 years at 12% how much"),
        u(
            "I'm 24, just started my first job at TCS in chennai, should i start now or wait till salary increases",
            e("identity", "24"),
            e("fact", "TCS"),
            e("fact", "Chennai"),
        ),
    ),
    chat(
        u(
            "whats the difference between a flat white and a cortado? I only drink oat milk btw so would that change things",
            e("preference", "oat"),
        ),
        u("and a macchiato?"),
    ),
    chat(
        u(
            "i'm a freelance illustrator based in Cork, mostly do children's books. need help writing a polite invoice chaser email",
            e("identity", "illustrator"),
            e("fact", "Cork"),
        ),
        u("it's 45 days overdue, €1,200, the client is a small publisher in Dublin"),
        u(
            "I use procreate on an ipad pro for everything so can you also suggest how to add my signature to the pdf on there",
            e("environment", "procreate"),
            e("environment", "ipad"),
        ),
        u(
            "btw I'm dyslexic so please keep emails you draft short and plain, no fancy words",
            e("fact", "dyslexi"),
            e("instruction", "plain"),
        ),
    ),
)
