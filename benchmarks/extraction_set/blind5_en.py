# ruff: noqa: E501  (message texts are data: kept on one line each)
"""The fifth blind held-out batch of English conversations of the extraction evaluation set: ids
`en-blind5-*`, split `heldout`, never used for tuning. A wide mix of speakers (US, UK, Irish,
Indian, Nigerian, Kenyan English and non-native writers from Germany, Spain, Poland, Brazil,
France, China, Japan and Vietnam) and topics (code and tracebacks, spreadsheets, cooking, health,
money, travel, writing, role-play, translation and proofreading), with four group conversations.
It was written blind, without reading the extractor, its tests, the benchmark or any other
conversation of the set; only `turns.py`'s shape was used."""

from __future__ import annotations

from typing import Final

from turns import Conversation, by, chat, e, group, u

CONVERSATIONS: Final[tuple[Conversation, ...]] = (
    chat(
        u(
            'hi, getting this error in my django app since morning, pls help\n\nTraceback (most recent call last):\n  File "/home/rahul/proj/venv/lib/python3.10/site-packages/django/db/backends/utils.py", line 89, in _execute\n    return self.cursor.execute(sql, params)\npsycopg2.errors.UndefinedColumn: column orders_order.discount_code does not exist\nLINE 1: ..."orders_order"."total", "orders_order"."discount_code" FROM "orders_order" WHE...\n\nThe above exception was the direct cause of the following exception:\n...\ndjango.db.utils.ProgrammingError: column orders_order.discount_code does not exist'
        ),
        u(
            "ya i added the field yesterday but i think i forgot migrate. btw this is a side thing i'm building for my cousin's bakery, small online order system, i only get to work on it weekends",
            e("project", "bakery"),
        ),
        u(
            "ok migrate worked 🙏 now how do i make the admin show discount_code in the list view and also filter by it"
        ),
        u(
            "thanks yaar. one more, i'm on windows 11 with wsl2 ubuntu and runserver autoreload is super slow, takes like 10 sec after every save, any fix?",
            e("environment", "WSL"),
        ),
    ),
    chat(
        u(
            "what can i make with a tin of chickpeas, half a butternut squash and some spinach that's going a bit sad"
        ),
        u(
            "sounds good but go easy on the chilli, my partner can't handle any heat at all. and no meat obviously, we've both been veggie for about six years now",
            e("fact", "veg"),
            e("relationship", "partner"),
        ),
        u("how long will it keep in the fridge, thinking of doing lunches"),
        u("perfect ta"),
    ),
    chat(
        u(
            "can you help me write a cover letter for this?\n\nInstructional Designer – Remote (US)\nBrightPath Learning is seeking an Instructional Designer to create engaging, learner-centered e-learning experiences for our K-12 and corporate partners. You will collaborate with subject matter experts to design storyboards, build interactive modules, and evaluate learning outcomes.\n\nRequirements:\n- 3+ years designing curriculum or instructional materials\n- Experience with Articulate Storyline or Rise 360\n- Familiarity with ADDIE or SAM\n- Excellent written communication\n\nNice to have: LMS administration (Canvas, Moodle), basic video editing\n\nSalary: $68,000–$82,000"
        ),
        u(
            "some background: i've taught high school chemistry for 9 years, currently at a public school just outside Columbus, and i'm trying to get out of the classroom and into instructional design for good",
            e("identity", "chemistry"),
            e("goal", "instructional design"),
        ),
        u(
            "i like it but it's way too long, i need it under 300 words and drop the bit about 'passion for learning', everyone says that"
        ),
        u("also is 'spearheaded' too much? feels very linkedin"),
        u(
            "ok last thing. for the portfolio i've been building a little storyline module on lab safety in my spare time, should i mention it in the letter or just link it",
            e("project", "lab safety"),
        ),
    ),
    chat(
        u(
            "Good evening. Please I need a formula in excel that will sum column D only when column B says Paid and the date in column A is in this current month"
        ),
        u(
            'It is giving #VALUE. This is what I typed =SUMIFS(D:D,B:B,"Paid",A:A,">="&EOMONTH(TODAY(),-1)+1,A:A,"<="EOMONTH(TODAY(),0))'
        ),
        u(
            "Ok it has worked now, thank you so much. I run a small printing business in Ikeja and I'm trying to track customers payments better, before now I was using only notebook",
            e("identity", "printing"),
            e("fact", "Ikeja"),
        ),
        u(
            "Also please from now on explain everything step by step with simple words, I am not too good with excel",
            e("instruction", "step"),
        ),
    ),
    group(
        ("Siobhan", "Declan"),
        by(
            "Siobhan",
            "right so we need to sort the lisbon thing, flights are like 180 return in may which isn't terrible",
        ),
        by(
            "Declan",
            "can you ask it for a 3 day itinerary, nothing too touristy. and no seafood places for me, i'm allergic to shellfish",
            e("fact", "Declan", "shellfish", forbid=("user",)),
        ),
        by(
            "Siobhan",
            "and put in a fado night, I've been dying to see one live since I started learning portuguese on duolingo last year",
            e("goal", "Siobhan", "portugu", forbid=("user",)),
        ),
        by("Declan", "also we're staying in alfama, is that walkable to belem or nah"),
        by(
            "Siobhan",
            "grand, can you put the whole thing in a table with morning afternoon evening",
        ),
    ),
    chat(
        u(
            'Hello, I have problem with borrow checker. Here my code:\n\nfn main() {\n    let mut v = vec![1, 2, 3];\n    let first = &v[0];\n    v.push(4);\n    println!("{}", first);\n}\n\nerror[E0502]: cannot borrow `v` as mutable because it is also borrowed as immutable\n --> src/main.rs:4:5\n  |\n3 |     let first = &v[0];\n  |                  - immutable borrow occurs here\n4 |     v.push(4);\n  |     ^^^^^^^^^ mutable borrow occurs here\n5 |     println!("{}", first);\n  |                    ----- immutable borrow later used here'
        ),
        u(
            "Ah ok now I understand. I am coming from C++, 15 years I write it at work in an automotive supplier, so Rust is very new for me, I learn it in the evenings",
            e("skill", "C++"),
            e("fact", "automotive"),
            e("goal", "Rust"),
        ),
        u("Can you explain lifetimes with example, like dangling reference in C++?"),
        u(
            "Thanks. Please in general keep your answers short, I mostly read them on my phone in the train",
            e("instruction", "short"),
        ),
    ),
    chat(
        u(
            "im 34 and trying to get back into running after like 5 years off, knees are kinda cranky. can you give me an 8 week plan to get to a 5k",
            e("identity", "34"),
            e("goal", "run"),
        ),
        u(
            "3 days a week max, i have two kids under 6 so mornings are chaos lol",
            e("relationship", "kid"),
        ),
        u("what does 'easy pace' actually mean, like in numbers"),
        u("ok can u put it in a table with weeks as rows"),
    ),
    chat(
        u(
            "my mum wrote this to her landlord, can you tidy it up a bit, english isn't her first language:\n\nDear Mr Collins,\n\nI am writing about the boiler in my flat which is broken since three weeks. I am 71 years old and I have asthma so the cold is very bad for me. I called your office four times and nobody is coming. I pay my rent always on time. Please send somebody this week.\n\nKind regards,\nHelena Nowak"
        ),
        u("bit firmer please, he's been fobbing her off for ages"),
        u("good. also what are her rights here, she's in Manchester if that matters"),
        u(
            "thanks, I'll send it to her. I'm down in Bristol so I can't just pop round and shout at him myself",
            e("fact", "Bristol"),
        ),
    ),
    chat(
        u("explain backprop in simple terms, exam tomorrow"),
        u(
            "im in 3rd year btech ECE at a college in pune, and tbh after graduating i want to do an MS in data science in germany, so i need this stuff properly",
            e("fact", "tech"),
            e("goal", "data science"),
        ),
        u("ok now give me 5 likely viva questions on this"),
        u("what is vanishing gradient, 2 lines only"),
    ),
    chat(
        u("if i lived in japan would i need a car or is the train thing overrated"),
        u(
            "like say tokyo vs fukuoka. just curious, my brother just moved to osaka for work and keeps sending me pics of vending machines",
            e("relationship", "brother"),
        ),
        u("whats the cheapest month to fly there"),
        u("lol ok never mind, i'd probably never leave the konbini"),
    ),
    group(
        ("Tunde", "Ngozi", "Emeka"),
        by(
            "Tunde",
            "Abeg help us share the budget for the traditional wedding, total is 4.5 million naira: venue, canopy, caterer, small chops, DJ, aso ebi, MC",
        ),
        by(
            "Ngozi",
            "Tunde it's not 4.5 o, my dad already said he'll cover the canopy. And I'm the one paying the caterer since I work at the bank and my bonus just came",
            e("fact", "Ngozi", "bank", forbid=("user",)),
        ),
        by(
            "Emeka",
            "I'm just the best man oh lol. But put small chops as separate line, I know one vendor in Surulere",
        ),
        by(
            "Tunde",
            "Fine. Make it a table with naira amounts. And note that I'm vegetarian so my plate is different, don't laugh",
            e("fact", "Tunde", "vegetarian", forbid=("user",)),
        ),
        by("Ngozi", "haha since when"),
    ),
    chat(
        u(
            'Translate to english please, is for a LinkedIn post of my boss, he asked me: "Hoy cumplo 10 años en la empresa. Empecé como becario en Madrid y ahora lidero un equipo de 12 personas en Barcelona. Gracias a todos los que me habéis acompañado."'
        ),
        u("Is more natural 'team of 12 people' or '12-person team'?"),
        u(
            "Ok thanks. By the way I want to improve my english for writing emails, I am QA engineer and all the tickets in my job are in english",
            e("identity", "QA"),
            e("goal", "english"),
        ),
        u("Can you give me 5 phrases for to say politely that a bug is still not fixed"),
    ),
    chat(
        u(
            "I want this component to return a list of <li> instead of the table, keep the sorting:\n\n```jsx\nexport default function UserTable({ users }) {\n  const [sortKey, setSortKey] = useState('name');\n  const sorted = [...users].sort((a, b) => a[sortKey].localeCompare(b[sortKey]));\n  return (\n    <table>\n      <thead>\n        <tr>\n          <th onClick={() => setSortKey('name')}>Name</th>\n          <th onClick={() => setSortKey('email')}>Email</th>\n        </tr>\n      </thead>\n      <tbody>\n        {sorted.map(u => (\n          <tr key={u.id}><td>{u.name}</td><td>{u.email}</td></tr>\n        ))}\n      </tbody>\n    </table>\n  );\n}\n```"
        ),
        u("I like the second version better but can it be typescript"),
        u(
            "fyi our stack is react 18 + vite + tailwind, no CRA, so skip the css file",
            e("environment", "Vite"),
        ),
        u(
            "perfect. I'm trying to get the sort to be case insensitive too, localeCompare with sensitivity?"
        ),
    ),
    chat(
        u(
            "any ideas for a birthday cake that's gluten free but doesn't taste like cardboard? I'm coeliac so it has to be properly gf not just 'low gluten'",
            e("fact", "eliac"),
        ),
        u("it's for my own 40th lol so I want it to be good", e("identity", "40")),
        u("do I need xanthan gum or can I skip it"),
        u("what if I used ground almonds instead of the flour blend"),
    ),
    chat(
        u(
            'Please help me polish this paragraph, make it more academic:\n\n"In this paper we propose a new method for detect small objects in drone images. The previous methods are not good when the object is very small and the background is complex. Our method use a feature pyramid with attention module and it get 3.2% higher mAP than the baseline on VisDrone dataset. Also it is faster."'
        ),
        u("Good. Don't use 'novel', my supervisor hate this word"),
        u(
            "I am second year PhD student in computer vision at a university in Singapore, this is my first CVPR submission and deadline is in 3 weeks so I am a bit panic",
            e("identity", "PhD"),
            e("fact", "Singapore"),
            e("project", "CVPR"),
        ),
        u(
            'Now the related work, check grammar only, don\'t change meaning: "Many works has focused on small object detection. Some of them use super-resolution to enlarge the small object, but this increase the computation a lot. Others method use context information from the surrounding area."'
        ),
    ),
    chat(
        u("how do i get rid of the ^M characters at the end of every line in vim"),
        u(
            "nvm got it. honestly i'm about done with vim, moved to vscode last week after 8 yrs and my pinky is thanking me",
            e("environment", "code", forbid=("uses vim",)),
        ),
        u("whats the vscode equivalent of :%s/foo/bar/g but across the whole project"),
        u("and can i keep the vim keybindings or is that cheating lol"),
    ),
    chat(
        u(
            "act as an interviewer for a junior data analyst role at a supermarket chain. ask me one question at a time and wait for my answer"
        ),
        u(
            "I'd say my biggest weakness is that I sometimes take on too much because I find it hard to say no, but I've started using a priority list to manage it"
        ),
        u(
            "In my last role I built a dashboard that cut the weekly reporting time from 6 hours to 1, mainly by automating the data pull"
        ),
        u(
            "ok stop the roleplay. how did i do? be honest, the real interview is on thursday and i'm bricking it"
        ),
        u(
            "fair. for context I've only been doing SQL for about a year, mostly self taught from youtube",
            e("skill", "SQL"),
        ),
    ),
    chat(
        u(
            "my father is 68 and has type 2 diabetes, what breakfast options are good for him, south indian preferably",
            e("relationship", "father"),
        ),
        u("he doesn't like oats at all, any other ideas"),
        u("can you make a 7 day chart"),
        u(
            "also I myself am trying to cut down sugar, my last checkup said I'm prediabetic, so I'll eat the same",
            e("fact", "prediabet"),
            e("goal", "sugar"),
        ),
    ),
    chat(
        u(
            'keep getting this, no idea why\n\n```python\nimport asyncio\nimport aiohttp\n\nURLS = [f"https://api.example.com/items/{i}" for i in range(50)]\n\nasync def fetch(session, url):\n    async with session.get(url) as resp:\n        return await resp.json()\n\nasync def main():\n    session = aiohttp.ClientSession()\n    tasks = [fetch(session, u) for u in URLS]\n    results = await asyncio.gather(*tasks)\n    print(len(results))\n\nasyncio.run(main())\n```\n\n```\n50\nUnclosed client session\nclient_session: <aiohttp.client.ClientSession object at 0x104c2b8d0>\nException ignored in: <function _ProactorBasePipeTransport.__del__ at 0x1049f1ee0>\nRuntimeError: Event loop is closed\n```'
        ),
        u(
            "still happening. i'm on python 3.12 on an m2 macbook air if that matters",
            e("environment", "mac"),
        ),
        u(
            "oh that was it, the session wasn't in the context manager. can you also add retry with backoff, max 3 tries, only on 5xx"
        ),
        u("great. I need it shorter though, no comments and no type hints"),
    ),
    chat(
        u("whats another word for 'grief' that isn't so heavy"),
        u(
            "context: i'm writing a novel about a woman who goes back to her family's farm in mayo after her da dies. i'm about 40k words in and stuck in the middle bit",
            e("project", "novel"),
        ),
        u(
            "she'd say something like 'sure it's only a field' but meaning the opposite. give me a few options for a line where she's pretending she doesn't care"
        ),
        u("I like the third one. can you make it sound more west of ireland, less dublin"),
        u(
            "btw I'm a secondary school English teacher by day so the writing is 5am before work stuff, go easy on me",
            e("identity", "teacher"),
        ),
    ),
    chat(
        u(
            "My dog ate a little bit of chocolate, like 2 squares of milk chocolate, he is 8 kg. Is it dangerous??"
        ),
        u(
            "He is a beagle mix, his name is Paçoca, 4 years old. He seems normal now, running around",
            e("relationship", "Paçoca"),
        ),
        u("Ok I will watch him. What signs I need to look?"),
        u(
            "Thank you. Sorry my english, I am from Brazil but living in Lisbon since 2 years",
            e("identity", "Brazil"),
            e("fact", "Lisbon"),
        ),
    ),
    chat(
        u(
            "trying to get this regex to match US phone numbers with or without the area code in parens: ^\\(?\\d{3}\\)?[- ]?\\d{3}-\\d{4}$ but it also matches 555)123-4567 which is wrong"
        ),
        u("i want it to be strict about the parens, both or none"),
        u(
            "nice. now in python, i need it to return all matches from a big text blob as a list, not just the first"
        ),
        u("works, thx"),
    ),
    chat(
        u(
            "Please, how do I prepare for the ICAN professional exams while working full time? I only have about 2 hours after work on weekdays",
            e("goal", "ICAN"),
        ),
        u(
            "I work as an audit associate in one of the big four firms here in Abuja, so busy season is January to March and I won't be able to read much then",
            e("identity", "audit"),
            e("fact", "Abuja"),
        ),
        u("Make me a timetable from now till the May diet"),
        u("Can you also recommend some youtube channels, Nigerian ones if possible"),
    ),
    chat(
        u("whats the difference between a hammer-on and a pull-off, I keep mixing them up"),
        u(
            "I've been playing guitar for about 3 months, self-taught, acoustic. my fingertips are finally not dying",
            e("skill", "guitar"),
        ),
        u(
            "can you suggest 3 songs that use both, nothing too fast. I'm way more into folk than rock",
            e("preference", "folk"),
        ),
        u("does Blackbird count as too hard"),
    ),
    chat(
        u("my friend lives in denver and says altitude makes baking weird, is that real"),
        u("what adjustments would she need for banana bread"),
        u(
            "haha ok i'll pass it on. my own banana bread is bad for totally different reasons, i live basically at sea level in savannah",
            e("fact", "Savannah"),
        ),
    ),
    chat(
        u(
            "rewrite this msg to my landlord more polite: 'the geyser is not working since 4 days, pls send someone today itself otherwise i will deduct from rent'"
        ),
        u("too polite now lol, somewhere in between"),
        u(
            "ok good. also unrelated, i'm shifting to hyderabad next month for a new job at a fintech startup, which areas near hitech city are ok for bachelors",
            e("fact", "Hyderabad"),
            e("fact", "fintech"),
        ),
        u("budget is around 25k for a 1bhk"),
    ),
    chat(
        u(
            "I have pod in CrashLoopBackOff, here is logs:\n\n2024-05-14T09:12:03Z INFO starting server on :8080\n2024-05-14T09:12:03Z INFO loading config from /etc/app/config.yaml\n2024-05-14T09:12:04Z ERROR failed to connect to postgres: dial tcp 10.43.12.4:5432: connect: connection refused\npanic: failed to connect to postgres\n\ngoroutine 1 [running]:\nmain.main()\n\t/app/main.go:42 +0x1e5\nexit status 2"
        ),
        u(
            "Postgres is in same namespace, service name is 'db'. It is k3s on three raspberry pi at home, my hobby cluster for selfhosting nextcloud and some small things",
            e("project", "Raspberry"),
        ),
        u("Ok so readiness probe on postgres, how I write it"),
        u(
            "works now, dziękuję! please always give me plain yaml manifests and not helm charts, I don't use helm",
            e("instruction", "helm"),
        ),
    ),
    chat(
        u("give me a grocery list for a week of lunches, high protein, under $60"),
        u(
            "no fish pls, i hate the smell, and i don't have a microwave at work",
            e("preference", "fish"),
        ),
        u("cilantro is also a no, tastes like soap to me", e("preference", "cilantro")),
        u("ok can you make it a printable checklist"),
    ),
    chat(
        u(
            "can you mark this like a GCSE examiner would, it's my son's english essay:\n\n\"In 'An Inspector Calls', Priestley presents Mr Birling as a selfish capitalist who only cares about money. This is shown when he says 'a man has to mind his own business and look after himself and his own'. The word 'himself' shows he doesn't care about anyone else. Priestley wants the audience to dislike him because in 1945 people wanted change after the war. I think Birling is also shown as foolish because he says the Titanic is 'unsinkable, absolutely unsinkable' and the audience knows it sank.\""
        ),
        u("be honest but kind, he's dyslexic and gets discouraged really easily"),
        u("what would push it from a 6 to a 7"),
    ),
    chat(
        u(
            "can you help me write a short leaving message for slack, my last day at Workday is friday after 4 years"
        ),
        u(
            "I'm starting at Intercom in two weeks as a senior backend engineer, so something warm but not too soppy",
            e("fact", "Intercom", forbid=("works at workday",)),
            e("identity", "backend"),
        ),
        u("shorter, and drop the emoji"),
        u("perfect, that's the one"),
    ),
    chat(
        u(
            "you are a tavern keeper in a dnd one shot. I'm a halfling rogue named Pip who just walked in soaking wet. stay in character no matter what"
        ),
        u(
            "*slides a copper across the bar* I'm looking for work. Heard you might know someone who needs a lock opened, quiet-like."
        ),
        u("I grew up on the streets of Waterdeep, I know how to keep my mouth shut. Now, the job?"),
        u(
            "ooc: this is great, i'm prepping a campaign for my friends and testing npc voices on you. can you make the tavern keeper grumpier and more suspicious",
            e("project", "campaign"),
        ),
    ),
    chat(
        u("who has more odi centuries, kohli or rohit"),
        u("ok and what's kohli's average in chases"),
        u(
            "haha i'm a die hard RCB fan, every year we say ee sala cup namde",
            e("preference", "RCB"),
        ),
    ),
    chat(
        u(
            "Please help me write an email to a professor in Canada asking if he has a funded Masters position in his lab. I finished my BSc in Microbiology from University of Ibadan with second class upper",
            e("fact", "Microbiology"),
        ),
        u(
            "His research is on antimicrobial resistance in poultry, that is exactly what my final year project was on"
        ),
        u("Make it less long, professors don't read long emails"),
        u("Should I attach my CV or transcript or both"),
    ),
    chat(
        u("my cat keeps scratching the couch, we tried the citrus spray stuff, nothing works"),
        u("she's a 2 yo rescue tabby named Biscuit, indoor only", e("relationship", "Biscuit")),
        u("is a scratching post really going to compete with a $1200 couch lol"),
        u("what about those soft nail caps, are they cruel"),
    ),
    chat(
        u(
            "Please translate this into natural English, it is a speech my grandmother wrote for her 80th birthday party:\n\n「皆さん、今日は本当にありがとうございます。私は広島で生まれ、十八歳で東京に出てきました。夫と六十年近く一緒に暮らし、三人の子どもと七人の孫に恵まれました。これからも元気でいたいと思います。」"
        ),
        u("Is 'came up to Tokyo' natural or strange?"),
        u(
            "Thank you. I will read it for her because she is shy. I live in Yokohama so it is easy for me to go to the party",
            e("fact", "Yokohama"),
        ),
    ),
    chat(
        u("solve 3x^2 - 5x - 2 = 0 and show working"),
        u("why did you split -5x into -6x and +x"),
        u("ohh ok that makes sense now"),
    ),
    chat(
        u(
            "is it too late to learn to code at 41? honest answer",
            e("identity", "41"),
            e("goal", "cod"),
        ),
        u(
            "i've been a UPS driver for 16 years, back's shot, want something where i can sit down lol",
            e("identity", "UPS"),
        ),
        u("what's better to start with, python or javascript"),
        u("ok python. free resources only, i'm not paying 15k for a bootcamp"),
    ),
    chat(
        u(
            "Pasting a JD, tell me honestly if my profile fits:\n\nSenior Data Engineer – Bengaluru (Hybrid)\nAbout us: We are a Series C logistics platform moving 2M shipments a month across India.\nWhat you'll do:\n- Own batch and streaming pipelines end to end\n- Model data in our lakehouse for analytics and ML teams\n- Mentor 2-3 junior engineers\nMust have: 5+ years with Spark, Airflow, AWS (Glue, EMR, Redshift), strong SQL\nGood to have: dbt, Kafka, Terraform\nCTC: as per industry standards"
        ),
        u(
            "I have 6 years total, 4 of them in spark on databricks, airflow yes, but my aws is limited, we're an azure shop",
            e("skill", "Spark"),
            e("environment", "Azure"),
        ),
        u("how do I phrase the aws gap in the interview without sounding weak"),
        u("ok and give a 2 week plan to get basics of glue and emr"),
    ),
    chat(
        u(
            "quick favor for all our chats going forward: skip the 'great question!' stuff, just answer",
            e("instruction", "great question"),
        ),
        u("whats the difference between a roth ira and a traditional one"),
        u("i'm 27 and make about 70k, which makes more sense for me", e("identity", "27")),
        u("ok and can i do both"),
    ),
    group(
        ("Jordan", "Mia", "Sam"),
        by(
            "Jordan",
            "ok so the offsite is in austin in oct, 14 people, need ideas for day 2 afternoon",
        ),
        by(
            "Mia",
            "nothing built around alcohol pls, a couple of people don't drink, me included",
            e("preference", "Mia", "drink", forbid=("user",)),
        ),
        by(
            "Sam",
            "I'm a wheelchair user so anything with hiking is out for me, fwiw",
            e("fact", "Sam", "wheelchair", forbid=("user",)),
        ),
        by("Jordan", "good call. also budget's about $90 a head"),
        by(
            "Mia",
            "ooh what about a cooking class, I've been obsessed with thai food since my trip last spring",
            e("preference", "Mia", "thai", forbid=("user",)),
        ),
        by("Sam", "works for me"),
    ),
    chat(
        u("what's the difference between a tracker and a fixed rate mortgage, in plain english"),
        u(
            "we're first time buyers, looking at flats in Leeds around 200k, me and my fiancé both work full time",
            e("relationship", "fianc"),
        ),
        u("if rates drop next year what happens on each"),
        u("ta, that's clearer than the bank guy"),
    ),
    chat(
        u(
            'Good morning sir. I am learning python from scratch, this is my code and it is not working:\n\nname = input("Enter your name")\nage = input("Enter your age")\nif age > 18:\n    print("You are adult")\nelse:\n    print("You are a minor")\n\nTypeError: \'>\' not supported between instances of \'str\' and \'int\'',
            e("goal", "python"),
        ),
        u("Wow it worked. Why input is giving string?"),
        u(
            "You don't need to call me sir lol. I'm a nurse at a general hospital in Enugu, I want to move into health informatics that's why I'm learning",
            e("identity", "nurse"),
            e("fact", "Enugu"),
            e("goal", "informatics"),
        ),
        u("Which one is next after if/else"),
    ),
    chat(
        u("recommend me a show like severance but less bleak"),
        u(
            "already watched dark and the leftovers, loved both, hated lost though",
            e("preference", "Leftovers"),
        ),
        u(
            "anything that's a limited series? i don't want to commit to 6 seasons of something right now"
        ),
        u("ok adding pluribus and mr robot to the list"),
    ),
    chat(
        u("how do you get red wine out of a cream carpet, asking for a friend (the friend is me)"),
        u("it's been there since last night"),
        u("brilliant, the baking soda worked mostly. you're a lifesaver"),
    ),
    chat(
        u(
            "how to say 'please don't put onion and garlic' in kannada, i just moved to bangalore from delhi and the auto guys and restaurant people mostly speak kannada",
            e("fact", "Bangalore", forbid=("lives in delhi",)),
        ),
        u(
            "i speak hindi, punjabi and english but kannada is totally new, any app you recommend",
            e("skill", "Punjabi"),
            e("goal", "Kannada"),
        ),
        u("also we're jain so no root vegetables either, how do i say that", e("fact", "Jain")),
        u("write them in english letters pls not kannada script"),
    ),
    chat(
        u(
            "I need a query that gets each customer's most recent order, postgres:\n\ncustomers(id, name, email)\norders(id, customer_id, created_at, total)"
        ),
        u("I want it to include customers with no orders too"),
        u(
            "can you do it with DISTINCT ON instead, window functions are hard to read for the rest of the team"
        ),
        u(
            "great, and explain this plan output:\n\nHash Right Join  (cost=38.25..72.31 rows=1000 width=52)\n  Hash Cond: (o.customer_id = c.id)\n  ->  Seq Scan on orders o  (cost=0.00..28.50 rows=1850 width=24)\n  ->  Hash  (cost=22.00..22.00 rows=1000 width=36)\n        ->  Seq Scan on customers c  (cost=0.00..22.00 rows=1000 width=36)"
        ),
    ),
    chat(
        u("when should I plant garlic in the UK"),
        u(
            "I've got an allotment in Sheffield, heavy clay soil and a bit of a frost pocket",
            e("fact", "Sheffield"),
        ),
        u("what about broad beans, autumn or spring"),
        u(
            "cheers. keep it to UK seasons from now on, the american advice online does my head in",
            e("instruction", "UK"),
        ),
    ),
    chat(
        u(
            'Can you correct my email for my landlord? "Hello Mr Smith, I write you because the heating is broken since monday. Can you send somebody please? I am at home all the day this week because I work from home. Best regards, Camille"'
        ),
        u(
            "Thanks. I am French, I moved to Edinburgh in september for a postdoc in marine biology, so all these things with landlords are new for me",
            e("identity", "French"),
            e("fact", "Edinburgh"),
            e("identity", "marine"),
        ),
        u("Is 'the heating is broken' or 'the heating doesn't work' better?"),
    ),
    chat(
        u("what's the difference between sumatriptan and rizatriptan"),
        u(
            "i get migraines with aura like 2-3 times a month, neuro put me on suma but it makes my jaw feel tight",
            e("fact", "migraine"),
        ),
        u("not asking for medical advice just want to understand before my appt"),
    ),
    group(
        ("Arjun", "Kavya"),
        by("Arjun", "we need a schedule for the tech fest, 2 days, 6 events, 3 halls"),
        by(
            "Kavya",
            "put the hackathon in hall A, it has the best wifi. and don't put anything for me before 11 on day 1, I have a viva at 9",
        ),
        by("Arjun", "also leave a slot for the sponsor talk, day 2 after lunch ideally"),
        by("Kavya", "can it be a gantt-ish table"),
        by(
            "Arjun",
            "btw I'm vegan, make sure the lunch vendor list has at least one vegan option this time",
            e("fact", "Arjun", "vegan", forbid=("user",)),
        ),
        by(
            "Kavya",
            "and put me down for the music night, I play keys in the college band",
            e("skill", "Kavya", "key", forbid=("user",)),
        ),
    ),
    chat(
        u(
            "here's my messy notes from a meeting, turn them into action items:\n\n- mark says Q3 launch slipping, need design sign off by 6/12\n- lisa to ping legal re: data retention\n- me: finish API docs, also check w/ infra on rate limits\n- onboarding flow v2?? nobody owns it\n- next sync thurs"
        ),
        u(
            "format for obsidian please, checkboxes, and tag each one with #work, that's where all my notes live",
            e("environment", "Obsidian"),
        ),
        u(
            "also I'm the product manager on this so phrase them so they don't sound like I'm bossing the engineers around lol",
            e("identity", "product"),
        ),
        u("perfect"),
    ),
    chat(
        u(
            "if I took the train from London to Edinburgh instead of flying, how much longer is it door to door roughly"
        ),
        u("and say I had a bike with me, can I take it on LNER"),
        u(
            "I don't fly anymore if I can help it, climate reasons, so trains it is for me",
            e("preference", "fly"),
        ),
    ),
    chat(
        u(
            "Help me draft a proposal summary for a grant. Project: solar powered cold storage for smallholder farmers in Kisumu county. I'm the co-founder of the startup, we have a pilot running with 40 farmers",
            e("project", "cold storage"),
            e("identity", "founder"),
        ),
        u("max 250 words, funder is a climate fund so emphasise emissions"),
        u("good. the second paragraph is weak, make the impact numbers pop"),
        u("we also avoided 12 tonnes of produce loss in the pilot, add that"),
    ),
    chat(
        u("whats the best way to sleep during the day, blackout curtains are not enough"),
        u(
            "i work nights as an ER nurse, 3x12s, been doing it 2 years and it's still brutal",
            e("identity", "nurse"),
        ),
        u("melatonin dose? I'm already on sertraline if that matters", e("fact", "sertraline")),
        u("thanks. shorter answers pls i'm reading this at 7am half dead"),
    ),
    chat(
        u(
            "update my address in this cover letter header please, I moved from Toronto to Halifax last month:\n\nAlex Chen\n123 Queen St W, Toronto, ON M5H 2M9\nalex.chen@email.com | 416-555-0199\n\nDear Hiring Manager,\n\nI am excited to apply for the Operations Coordinator position at Maritime Freight Co. ...",
            e("fact", "Halifax", forbid=("lives in toronto",)),
        ),
        u("new address is 55 Spring Garden Rd, Halifax NS, the phone stays the same"),
        u("also make the first line of the letter less generic"),
    ),
    chat(
        u(
            "convert this recipe to grams please, it's american:\n\n2 cups flour\n1 cup sugar\n1/2 cup butter, softened\n1 tsp baking soda\n3/4 cup buttermilk\n2 eggs\nbake at 350F for 35 min"
        ),
        u(
            "and going forward always give me metric and celsius, I'm in Galway, we don't do cups",
            e("instruction", "metric"),
            e("fact", "Galway"),
        ),
        u("what's buttermilk if I can't find it"),
    ),
    chat(
        u(
            "help me write a toast for my sister's wedding, she's marrying her college boyfriend Dev, they met in a chemistry lab at Purdue",
            e("relationship", "sister"),
        ),
        u("I want it funny but not roasting her, 2 minutes max"),
        u("add the story about the time she drove to the wrong airport"),
        u("i like it, make the ending less cheesy"),
    ),
    chat(
        u("how to do train test split with stratify in sklearn, my dataset is imbalanced 95/5"),
        u(
            "I get ValueError: The least populated class in y has only 1 member, which is too few. The minimum number of groups for any class cannot be less than 2."
        ),
        u(
            "ok thanks. I am data analyst in a bank in Ho Chi Minh City, my manager wants a churn model but I only know excel and a little python",
            e("identity", "analyst"),
            e("fact", "Ho Chi Minh"),
        ),
        u("can you recommend a course, short one please"),
    ),
    chat(
        u(
            "how do I make the text bigger on my ipad, my eyes aren't what they were",
            e("environment", "iPad"),
        ),
        u("I'm 72 so go slowly with me please", e("identity", "72")),
        u("found it! thank you dear"),
    ),
)
