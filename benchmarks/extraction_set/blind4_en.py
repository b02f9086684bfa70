# ruff: noqa: E501  (message texts are data: kept on one line each)
"""The fourth blind held-out batch of English conversations of the extraction evaluation set, ids `en-blind4-*`, split `heldout`, never used for tuning. Written blind by data writer W5: without reading the extractor, its tests, the benchmark or any other conversation of the set; only the shape and helpers of `turns.py` were used. Speakers are of several backgrounds (US, UK, Indian, Irish, Nigerian, non-native English), most messages are task requests that hold no memory, and the self-disclosures are varied in wording and often buried in a request."""

from __future__ import annotations

from typing import Final

from turns import Conversation, by, chat, e, group, u

CONVERSATIONS: Final[tuple[Conversation, ...]] = (
    chat(
        u(
            "hey so quick one, i'm a paramedic in leeds and our station is doing a charity bake sale next week, can u give me a catchy name for it? something with ambulance puns lol",
            e("identity", "paramedic"),
            e("fact", "leeds"),
        ),
        u("haha those are terrible. more like the 3rd one"),
        u("ok 'Sirens & Scones' it is. now a short poster text, 40 words max"),
        u(
            "btw i'm gluten intolerant myself so can u suggest 2 gluten free bakes i could make for it, nothing fancy",
            e("fact", "gluten"),
        ),
    ),
    chat(
        u(
            "Traceback (most recent call last):\n  File \"app.py\", line 42, in <module>\n    df = pd.read_csv(path, sep=';')\n  File \"/usr/lib/python3/dist-packages/pandas/io/parsers.py\", line 610, in read_csv\n    return _read(filepath_or_buffer, kwds)\nUnicodeDecodeError: 'utf-8' codec can't decode byte 0xe9 in position 1187: invalid continuation byte\n\nwhat does this mean"
        ),
        u("tried encoding='latin-1' and it loads now but the accents are garbage in the output"),
        u(
            "ok cp1252 fixed it thanks. i want the function to return a list of dicts instead of a dataframe btw"
        ),
        u(
            "context: i'm a data analyst at a freight company and we get these csvs from french suppliers every week, so it needs to be robust",
            e("identity", "data analyst"),
        ),
    ),
    chat(
        u(
            "Can you proofread this cover letter? 'Dear Hiring Manager, I am writing to apply for the role of Junior Data Analyst. I have recently graduated with a first-class degree in Economics from the University of Bristol and I am passionate about turning numbers into stories. In my spare time I volunteer as a maths tutor.' — it's for my cousin, she asked me to check it before she sends it"
        ),
        u("good. can you make it sound less generic without making it longer"),
        u(
            "I like the second version better, go with that one but keep 'turning numbers into stories'"
        ),
    ),
    chat(
        u(
            "abeg how do I convert naira to dollars in excel using a rate that's in another sheet? i run a small phone accessories shop in ikeja and i keep my stock in a spreadsheet",
            e("fact", "ikeja"),
            e("identity", "phone accessor"),
        ),
        u("the rate is in Sheet2!B1"),
        u("it's showing #REF!"),
        u("ah i had deleted a column. sorted. thanks o"),
    ),
    chat(
        u(
            "from now on please give all temperatures in celsius and distances in km, i never know what fahrenheit means",
            e("instruction", "celsius"),
        ),
        u("what's the typical weather in denver in march? thinking about a trip"),
        u("and how far is it from there to boulder"),
        u(
            "my wife and i are both teachers so we only get spring break, which week in march is least crowded for the mountains",
            e("relationship", "wife"),
            e("identity", "teacher"),
        ),
    ),
    chat(
        u(
            "act as a grumpy medieval innkeeper. i'm a traveller who just walked in soaked from the rain. stay in character"
        ),
        u(
            "*shakes off my cloak* I've come from the northern pass and I'm looking for a room and a hot meal. I have three silver coins and a sword I'd rather not sell."
        ),
        u("*slides the coins across* fine, two nights then. what news from the capital?"),
        u(
            "ok break character for a sec, this is for a D&D session i'm running on friday, can you summarise the innkeeper's personality in 3 bullets so i can play him"
        ),
        u(
            "honestly been DMing for like 8 years but this is the first time i'm running my own homebrew campaign, it's set in a drowned city, so i'm a bit nervous",
            e("skill", "8 year"),
            e("project", "homebrew"),
        ),
    ),
    chat(
        u(
            "I'm 34, I've been vegetarian for about ten years and I just found out I'm borderline anaemic. Can you suggest iron-rich meals that don't involve tofu? I really can't stand tofu.",
            e("identity", "34"),
            e("fact", "vegetarian"),
            e("fact", "nemi"),
            e("preference", "tofu"),
        ),
        u("lentils are fine. give me a 5-day dinner plan"),
        u("day 3 looks too complicated, swap it for something under 30 min"),
    ),
    chat(
        u("what's the difference between 'affect' and 'effect', i always mix them up"),
        u("so 'the weather affected my mood' is right?"),
        u("cool ty"),
    ),
    chat(
        u(
            "my flatmate keeps leaving dishes in the sink for days. she works night shifts at the hospital so i don't want to be a jerk about it. how do i bring it up"
        ),
        u(
            "can you write a short message i could send her on whatsapp, friendly not passive aggressive"
        ),
        u("too formal lol, we're both 25, make it sound like a normal text", e("identity", "25")),
    ),
    chat(
        u(
            "Translate into Spanish please: 'Hi, my name is Tom and I'm allergic to peanuts. Could you tell me if this dish contains any nuts? Thank you.'"
        ),
        u("and how would I say it if I'm talking to someone older, more polite"),
        u(
            "perfect. btw I'm taking my daughter to Madrid in April, she's the one with the peanut allergy actually, any tips for eating out there with a nut allergy?",
            e("relationship", "daughter"),
        ),
    ),
    chat(
        u(
            "ok so i have this regex ^\\d{3}-\\d{4}$ and i'm trying to get it to also accept numbers without the dash"
        ),
        u("now i need it to reject anything starting with 0"),
        u("perfect that works in my tests"),
        u(
            "for context it's for the signup form of a little volunteer-matching site i'm building for my church, just me coding it on weekends",
            e("project", "volunteer"),
        ),
    ),
    chat(
        u(
            "Could you give me a vocabulary list for going to the doctor in German? I moved to Munich from Chennai last autumn for a job at a semiconductor firm and my German is still pretty basic, A2 at best.",
            e("fact", "munich"),
            e("fact", "chennai"),
            e("skill", "german"),
        ),
        u("add the words for 'prescription' and 'sick note' too"),
        u("and how do I say 'I have had a fever since Tuesday'"),
        u(
            "danke! I'm aiming to reach B2 by next summer so I can do my job interviews in German, any app recommendations?",
            e("goal", "b2"),
        ),
    ),
    chat(
        u(
            "I need it shorter. Here's the paragraph: 'Our team has spent the past quarter redesigning the onboarding flow, which resulted in a 12% reduction in drop-off at the second step, and we believe that with further iteration on the copy and the illustrations we can push that number even further by the end of next quarter.'"
        ),
        u("shorter still, one sentence, under 25 words"),
        u("good. now a version for a slide title"),
        u(
            "i'm a product manager so i write about fifty of these a week lol, is there a general rule for making status updates punchier",
            e("identity", "product manager"),
        ),
    ),
    group(
        ("Siobhan", "Declan"),
        by(
            "Siobhan",
            "right so we need a plan for mam's 60th, I'm thinking a surprise dinner in Galway since that's where I live anyway and it's easy for me to book",
            e("fact", "Siobhan", "galway", forbid=("user",)),
        ),
        by(
            "Declan",
            "grand but I'm coming over from Boston so it has to be a weekend, I can't take more than 3 days off",
            e("fact", "Declan", "boston", forbid=("user",)),
        ),
        by(
            "Siobhan",
            "can the AI give us a few restaurant ideas, somewhere with a private room for about 20 people",
        ),
        by("Declan", "and nothing too fancy, mam hates fussy food, she'd rather a good roast"),
        by(
            "Siobhan",
            "also I'm off dairy these days so somewhere that can do dairy-free mains would be handy",
            e("fact", "Siobhan", "dairy", forbid=("user",)),
        ),
    ),
    chat(
        u(
            "```js\nconst fetchUsers = async () => {\n  const res = await fetch('/api/users')\n  const data = res.json()\n  setUsers(data.items)\n}\n```\nwhy is users undefined"
        ),
        u("ahh missing await. also it re-renders forever now"),
        u("it's in a useEffect with no deps array, yes"),
        u(
            "fixed, thanks. i use neovim with the typescript lsp and it didn't flag any of this, is there a lint rule for floating promises?",
            e("environment", "neovim"),
        ),
    ),
    chat(
        u(
            "If I lived in Japan, would I need a car or could I get around fine with trains? just daydreaming lol"
        ),
        u("what about somewhere rural like Hokkaido"),
        u("ok you've convinced me, tokyo it is. in my imaginary life anyway"),
        u(
            "fwiw i actually am learning japanese, 200 day streak on duolingo, only know hiragana and katakana so far",
            e("goal", "japanese"),
        ),
    ),
    chat(
        u(
            "hi, i teach year 4 at a primary school in Manchester and I need a fun 10-minute warm-up activity on fractions, the kids are 8-9",
            e("identity", "teach"),
            e("fact", "manchester"),
        ),
        u("they don't have whiteboards each, just paper"),
        u("love the pizza one. can you write the instructions as i'd say them to the class"),
    ),
    chat(
        u(
            "Rewrite this in a more professional tone: 'hey guys, the server is down AGAIN, I've told you like five times we need to upgrade the plan. I'm not staying late tonight to fix it, somebody else can do it for once.'"
        ),
        u("keep the point that this has happened repeatedly though"),
        u("good, send-ready"),
    ),
    chat(
        u("what's a good name for a golden retriever puppy? we're picking him up saturday"),
        u(
            "my kids want 'Pancake' lol. we're going with Biscuit though, decided",
            e("relationship", "biscuit"),
            e("relationship", "kid"),
        ),
        u("how often should an 9 week old puppy eat"),
        u("and when can he start going on walks outside"),
    ),
    chat(
        u(
            "I've been playing the cello for about 15 years, mostly orchestral stuff, but I've never improvised in my life. Where do I even start with jazz?",
            e("skill", "cello", "15"),
        ),
        u("I don't really want to learn a whole new instrument, I'd rather stay on cello"),
        u("can you suggest a few jazz recordings with cello I could listen to"),
        u(
            "the dream would be to sit in at a proper jam session by the end of next year without embarrassing myself",
            e("goal", "jam"),
        ),
    ),
    chat(
        u(
            "My sister just got into med school in Dublin and she's nervous about finding a flat. What areas are good for students near Trinity?",
            e("relationship", "sister"),
        ),
        u("what's a reasonable rent for a room there these days"),
        u("ok I'll forward this to her, thanks"),
    ),
    chat(
        u(
            "can you help me plan my week? i'm a final-year law student at university of lagos and i have exams starting monday, also i work weekends at my uncle's pharmacy",
            e("fact", "law", "lagos"),
            e("fact", "pharmacy"),
        ),
        u("exams are: mon contract law, wed criminal law, fri constitutional law"),
        u("i study better at night, so put most revision after 8pm", e("preference", "night")),
        u("looks good. can you make it a table"),
    ),
    chat(
        u(
            "```sql\nSELECT c.name, COUNT(o.id)\nFROM customers c\nLEFT JOIN orders o ON o.customer_id = c.id\nWHERE o.created_at > '2024-01-01'\nGROUP BY c.name;\n```\ncustomers with no orders aren't showing up even though it's a left join??"
        ),
        u("oh the where clause kills it. move it into the ON then?"),
        u("yep that did it"),
        u(
            "i'm on postgres 15 and use dbeaver, does the explain output there show this kind of thing",
            e("environment", "postgres"),
        ),
    ),
    chat(
        u(
            "pretend you're a job interviewer at a big tech company and ask me behavioural questions one at a time. I'll answer as if it was real"
        ),
        u(
            "Sure. 'Tell me about a time you disagreed with a manager.' — ok my answer: At my last company I was a product designer and my manager wanted to ship a feature without user testing. I pushed for a quick round of five interviews and we found two major issues."
        ),
        u("how was that answer? too short?"),
        u("next question"),
    ),
    chat(
        u(
            "ugh my laptop is so slow. it's a 2017 macbook air, should i just get a new one or is there something i can do",
            e("environment", "macbook"),
        ),
        u("it has 128gb and like 3gb free lol"),
        u("ok cleaned 40gb of old iphone backups, much better already"),
    ),
    chat(
        u(
            "hello sir, i am working as a QA engineer in an IT company in Pune since 6 years, mostly manual testing. i want to move into automation, which should i learn first selenium or playwright?",
            e("identity", "qa"),
            e("fact", "pune"),
            e("skill", "manual test", "6"),
            e("goal", "automation"),
        ),
        u("my company uses java mostly"),
        u("ok please give a 2 month roadmap with weekly topics"),
        u(
            "also please keep explanations simple, english is not my first language and I get confused with very long sentences",
            e("instruction", "simple"),
        ),
    ),
    chat(
        u("write me a limerick about a cat who steals socks"),
        u("lol. now one where the cat gets caught"),
        u(
            "my actual cat does this btw, her name is Mochi and she has a whole stash under the sofa",
            e("relationship", "mochi"),
        ),
    ),
    chat(
        u(
            "What are the pros and cons of a Roth IRA vs a traditional IRA? I'm 29, making about 70k, and I live in Ohio if that matters for taxes.",
            e("identity", "29"),
            e("fact", "ohio"),
        ),
        u("what if I expect to earn a lot more later"),
        u("ok that makes sense. can you give me the contribution limit for this year"),
        u(
            "oh and does it change anything that I just switched jobs? I left the bank in August and I'm at a hospital system now, they have a 403b not a 401k",
            e("fact", "hospital", forbid=("bank",)),
        ),
    ),
    chat(
        u(
            "Please proofread, it's a speech for my best friend's wedding: 'I've known Jack since we were six years old, when he punched me in the nose over a Pokémon card. Twenty years later, he's still the most loyal person I know. When he told me he'd met someone who made him happier than a new Game Boy, I knew it was serious.'"
        ),
        u("can you add a line about his wife Emma without being cheesy"),
        u("perfect, cheers mate"),
    ),
    chat(
        u("how do i undo the last git commit but keep the changes"),
        u("and if i already pushed it"),
        u("it's just my own branch so force push is fine"),
        u(
            "tbh for git stuff from now on just give me the one-liner first and the explanation after, i always forget these",
            e("instruction", "one-liner"),
        ),
    ),
    chat(
        u(
            "so I quit my job at Deloitte last month and I'm starting my own bookkeeping business for small restaurants, mostly working from home in Cork. Can you help me write a one-page services overview?",
            e("fact", "deloitte"),
            e("project", "bookkeeping"),
            e("fact", "cork"),
        ),
        u("services: monthly bookkeeping, VAT returns, payroll for up to 20 staff"),
        u("tone: friendly but not cutesy"),
        u("nice. can you also suggest 5 names for the business"),
    ),
    chat(
        u(
            "i'm trying to get this bash script to loop through all .jpg files in a folder and rename them with a date prefix\n\nfor f in *.jpg; do\n  mv $f $(date +%Y%m%d)_$f\ndone\n\nit breaks on files with spaces"
        ),
        u("quoting fixed it. can it use the photo's exif date instead of today"),
        u("exiftool is installed yeah, i'm on arch linux", e("environment", "arch")),
    ),
    chat(
        u(
            "Can you act as my Italian conversation partner? Only reply in Italian, simple level. I'm learning because my husband's family is from Naples and I want to be able to chat with his grandmother.",
            e("goal", "italian"),
            e("relationship", "husband"),
        ),
        u(
            "Ciao! Mi chiamo Laura, abito a Chicago e sono un'infermiera.",
            e("identity", "laura"),
            e("fact", "chicago"),
            e("identity", "nurse"),
        ),
        u("can you correct my mistakes at the end of each reply", e("instruction", "correct")),
        u("Mi piace cucinare ma non sono molto brava"),
    ),
    chat(
        u(
            "Help me write a complaint to my landlord. The boiler has been broken for two weeks and he keeps ignoring my texts. I'm renting a flat in Glasgow with my partner and our baby, so no heating is a real problem.",
            e("fact", "glasgow"),
            e("relationship", "partner"),
            e("relationship", "baby"),
        ),
        u("should I mention that I could contact the council"),
        u("yes add that, firm but polite"),
    ),
    chat(
        u("Explain Big O notation like I'm five"),
        u("now like I'm a CS student"),
        u(
            "what's the big O of this\n\ndef f(n):\n    total = 0\n    for i in range(n):\n        for j in range(i):\n            total += j\n    return total"
        ),
        u(
            "i'm in my second year of computer science at IIT Madras btw, DSA exam next week so more of these please",
            e("fact", "computer science"),
            e("fact", "madras"),
        ),
    ),
    group(
        ("Tunde", "Amaka", "Chidi"),
        by(
            "Tunde", "guys we need to decide on the name for the app before the hackathon ends at 6"
        ),
        by(
            "Amaka",
            "i still like 'FarmLink', it's for connecting smallholder farmers to buyers, says what it does",
        ),
        by(
            "Chidi",
            "I'm handling the backend, I've done Django for like 4 years so that part is fine, but we need someone on the USSD side",
            e("skill", "Chidi", "django", forbid=("user",)),
        ),
        by(
            "Tunde",
            "I can take USSD, I did it at my internship at MTN last year",
            e("fact", "Tunde", "mtn", forbid=("user",)),
        ),
        by("Amaka", "ok ask the bot to give us a 2 minute pitch script for FarmLink"),
    ),
    chat(
        u(
            "i hate cilantro with a passion, it tastes like soap to me. can you give me a guacamole recipe without it",
            e("preference", "cilantro"),
        ),
        u("what can i use instead for freshness"),
        u("lime and a bit of parsley, ok sounds good"),
    ),
    chat(
        u(
            "JOB POSTING — Senior Backend Engineer (Remote, EU)\nWe're a 40-person fintech startup building payment infrastructure for marketplaces. You'll own services written in Go and Postgres, mentor two mid-level engineers and work closely with product.\nRequirements: 5+ years backend experience, strong Go, Kubernetes, event-driven architecture. Nice to have: Kafka, PCI-DSS.\n\ndoes my CV match this? I have 7 years of backend, mostly Java and Spring, about a year of Go, and I've run stuff on k8s at my current job",
            e("skill", "backend", "7"),
            e("skill", "java"),
        ),
        u("how should i frame the Go experience so it doesn't look weak"),
        u(
            "rewrite my summary line then: 'Backend engineer with experience in distributed systems.'"
        ),
    ),
    chat(
        u(
            "can u recommend a show like severance? i loved it, and i also liked dark on netflix. not into anything too gory tho",
            e("preference", "severance"),
            e("preference", "gor"),
        ),
        u("seen black mirror already"),
        u("ok adding devs and maniac to the list"),
    ),
    chat(
        u("how many grams of protein in 200g of chicken breast"),
        u("and in 3 eggs"),
        u(
            "thanks, i'm trying to hit 140g a day, been lifting for about 2 years now",
            e("skill", "lifting", "2 year"),
        ),
    ),
    chat(
        u(
            "Write a short bio for a conference in third person: my name is Dr. Ifeoma Okafor, I'm a senior lecturer in public health at the University of Nairobi, originally from Enugu, and my research is on maternal health in informal settlements.",
            e("identity", "ifeoma"),
            e("identity", "lecturer"),
            e("fact", "nairobi"),
            e("identity", "enugu"),
        ),
        u("max 60 words"),
        u("drop the word 'passionate', I hate that word in bios"),
    ),
    chat(
        u(
            "ok so this is my react component and the button click doesn't update the count\n\nfunction Counter() {\n  let count = 0;\n  return <button onClick={() => count++}>{count}</button>;\n}"
        ),
        u("oh right useState. done"),
        u(
            "I'd like all your code answers in TypeScript from now on, not plain JS",
            e("instruction", "typescript"),
        ),
        u("convert the counter then"),
    ),
    chat(
        u(
            "my mum has just been diagnosed with type 2 diabetes and she's really overwhelmed. can you explain it simply so i can explain it to her?"
        ),
        u(
            "what kind of breakfast would be good for her? she's indian so she usually has poha or paratha"
        ),
        u("thank you this is really helpful"),
    ),
    chat(
        u(
            "I'm left-handed and my handwriting is a mess, any exercises to improve it? I'm 41 so maybe it's too late lol",
            e("identity", "41"),
        ),
        u("fountain pen or ballpoint?"),
    ),
    chat(
        u(
            "Please translate this to French for my boss: 'We are pleased to announce that our Lyon office will open in September. I will personally oversee the transition and I look forward to meeting the new team.'"
        ),
        u("make it slightly less formal"),
        u("merci. btw i don't speak a word of french so i'll trust you on this one lol"),
    ),
    chat(
        u(
            "switched from vscode to zed last week, how do I get format on save working for python?",
            e("environment", "zed", forbid=("vs code", "vscode")),
        ),
        u("i use ruff"),
        u("and how do i set the tab size to 4 for python only"),
    ),
    chat(
        u("give me 10 trivia questions about the 90s for a pub quiz, with answers"),
        u("make 3 of them harder"),
        u("swap the spice girls one, too easy"),
        u(
            "i host the quiz at my local in Cardiff every thursday so i'm always after new rounds, can you do a music intros round next",
            e("fact", "cardiff"),
        ),
    ),
    chat(
        u(
            "hiya, I've got a job interview for a care assistant role at a nursing home, I've been looking after my nan for 3 years since her stroke so I've got experience but no qualifications. How do I talk about that?",
            e("relationship", "nan"),
        ),
        u("they'll ask why I want the job"),
        u("write me an answer I can practise, keep it natural"),
    ),
    chat(
        u(
            "I want the function to return a list of the top 3 words, not print them\n\ndef top_words(text):\n    counts = {}\n    for w in text.lower().split():\n        counts[w] = counts.get(w, 0) + 1\n    for w, c in sorted(counts.items(), key=lambda x: -x[1])[:3]:\n        print(w, c)"
        ),
        u("can you use Counter instead"),
        u("and strip punctuation too"),
    ),
    chat(
        u(
            "We moved from Toronto to Halifax in the spring and I'm still not used to how early everything closes lol. any cosy things to do on a rainy sunday here?",
            e("fact", "halifax", forbid=("toronto",)),
        ),
        u("we have a toddler so kid friendly please", e("relationship", "toddler")),
        u("the discovery centre sounds great, thanks"),
    ),
    group(
        ("Priya", "Arjun"),
        by(
            "Priya",
            "ok let's plan the Goa trip properly, I can only do the last week of December because my hospital rota is brutal this month",
            e("fact", "Priya", "hospital", forbid=("user",)),
        ),
        by(
            "Arjun",
            "fine by me, I'm freelancing now since I left Infosys so my dates are flexible",
            e("fact", "Arjun", "infosys", forbid=("user",)),
        ),
        by("Priya", "ask for a 5 day itinerary, north Goa, not too much partying"),
        by(
            "Arjun",
            "and I'm vegan now so restaurants need options, don't laugh",
            e("fact", "Arjun", "vegan", forbid=("user",)),
        ),
        by("Priya", "lol ok. also add one day trip to Dudhsagar falls if it's doable"),
    ),
    chat(
        u(
            "Hi! I'm a Brazilian living in Lisbon for two years now, I work as a UX researcher. I need to write a LinkedIn post in English about a workshop I ran, my English is ok but not great, can you polish it? 'Last week I facilitate a workshop about accessibility for 30 designers. Was amazing to see how many of them never tested with screen reader before.'",
            e("identity", "brazil"),
            e("fact", "lisbon"),
            e("identity", "ux research"),
        ),
        u("make it a bit more enthusiastic, but no emojis please"),
        u(
            "i prefer when you explain the grammar corrections too, so i can learn",
            e("instruction", "grammar"),
        ),
    ),
    chat(
        u("how long to boil an egg for a runny yolk"),
        u("and jammy?"),
        u("6:30 was perfect"),
        u(
            "next mission is poached, which i much prefer to boiled but mine always end up like egg drop soup",
            e("preference", "poach"),
        ),
    ),
    chat(
        u(
            'Can you explain what\'s happening here? Our nginx logs show this over and over:\n\n2024/03/11 02:14:07 [error] 1123#1123: *98231 upstream timed out (110: Connection timed out) while reading response header from upstream, client: 10.0.4.17, server: api.example.com, request: "POST /v1/reports HTTP/1.1", upstream: "http://127.0.0.1:8000/v1/reports"\n\nthe report endpoint can take a couple of minutes'
        ),
        u("should I just raise proxy_read_timeout or make it async"),
        u(
            "ok async with a job id, makes sense. i'm the only devops person at a 12-person agency so i'd rather not maintain a queue system if i can avoid it",
            e("identity", "devops"),
        ),
    ),
    chat(
        u(
            "Write a short story opening, first person: 'I was born in a lighthouse, and my father never let me forget it.' Continue for 150 words."
        ),
        u("darker"),
        u("good, keep that tone for the next paragraph"),
    ),
    chat(
        u(
            "I used to run Windows but I've been on Fedora for about a year now and I'm never going back. What's the easiest way to get Steam games working?",
            e("environment", "fedora", forbid=("windows",)),
        ),
        u("proton is on already, some games just won't launch"),
        u("Elden Ring specifically"),
    ),
    group(
        ("Maya", "Josh"),
        by(
            "Maya",
            "can you help us split the rent fairly? the flat is 2400 a month, my room is the big one with the ensuite",
        ),
        by(
            "Josh",
            "and I work from home full time so I use the living room as an office during the day, which is probably worth something",
            e("fact", "Josh", "home", forbid=("user",)),
        ),
        by("Maya", "true. ok, give us two or three ways to split it"),
        by("Josh", "the second one feels fair to me"),
    ),
    chat(
        u(
            "my name's Kwame, I'm a self-taught photographer, been shooting weddings in Accra for about 5 years. I'm thinking of raising my prices, how do I tell existing clients without losing them?",
            e("identity", "kwame"),
            e("fact", "accra"),
            e("skill", "wedding", "5"),
        ),
        u("draft a short announcement for instagram"),
        u("a bit warmer, my clients are mostly friends of friends"),
    ),
    chat(
        u(
            "please always answer me in bullet points, I have ADHD and big paragraphs are hard for me to read",
            e("instruction", "bullet"),
            e("fact", "adhd"),
        ),
        u("how do I get better at starting boring tasks"),
        u("the 5 minute rule thing is good, more like that"),
    ),
    chat(
        u(
            "Pretend you are a customer who is angry about a late delivery, I'm practising for my new call centre job",
            e("identity", "call centre"),
        ),
        u("I'm very sorry to hear that, could I take your order number please?"),
        u(
            "I understand how frustrating that is. I can see the parcel is at the local depot and I'll arrange delivery for tomorrow morning."
        ),
        u("how did I do? be honest"),
    ),
    chat(
        u(
            "I'm planning to run my first marathon next October, currently doing about 25k a week. Is a 10 month plan realistic?",
            e("goal", "marathon"),
        ),
        u("my knees get a bit sore after long runs"),
        u("ok I'll see a physio first"),
        u(
            "also the plan has to be all outdoors, i hate treadmill running with a passion, I've done three half marathons all on the road",
            e("preference", "treadmill"),
        ),
    ),
)
