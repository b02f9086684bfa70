# ruff: noqa: E501  (message texts are data: kept on one line each)
"""Realistic English conversations of the extraction evaluation set, second batch (dev).

Ids `en-real2-*`, split `dev`: these conversations may be used to tune the rules. Written
blind, with `blind2_en.py`, before the extractor was ever run on either: without reading the
extractor's rules, its confidence model, its tests, the benchmark or any other conversation of
the set (only the shape of `heldout_supplement.py` was copied).

Both files were written as one population of chats shaped like real exports (lower case,
typos, pasted code, tracebacks, e-mails, job ads and essays, requests for the task at hand,
role-play, text to translate or proofread, hypotheticals, other people, quotations, chit-chat,
three group conversations each) beside genuine self-disclosure by speakers of several
backgrounds (US, UK, Irish, Indian, Nigerian English and non-native speakers), and dealt
alternately: the 1st conversation to `real2_en.py`, the 2nd to `blind2_en.py`, and so on, so
that both halves have the same mix.

The shape of a conversation is `turns.py`'s.
"""

from __future__ import annotations

from typing import Final

from turns import Conversation, by, chat, e, group, u

CONVERSATIONS: Final[tuple[Conversation, ...]] = (
    chat(
        u(
            'hi can u help me fix this error\n\nTraceback (most recent call last):\n  File "C:\\Users\\rk\\proj\\app.py", line 14, in <module>\n    df = pd.read_csv(path)\n  File "...\\pandas\\io\\parsers\\readers.py", line 912, in read_csv\n    return _read(filepath_or_buffer, kwds)\nFileNotFoundError: [Errno 2] No such file or directory: \'data/sales_2023.csv\''
        ),
        u(
            "ok its working now, path was wrong. btw i am working as data analyst in Infosys since 2 years, i use pandas and power bi daily so pls keep it practical not theory",
            e("identity", "analyst"),
            e("fact", "Infosys"),
            e("environment", "power bi"),
        ),
        u(
            "now i want the output grouped by region and month, and month column should be like Jan-23 not 2023-01"
        ),
        u("perfect thanks"),
        u(
            "also for the future, give me the code first and the explanation after, i never read the long paragraphs before the code lol",
            e("instruction", "code"),
        ),
    ),
    chat(
        u(
            "Please help me review my CV for this role. Here is the job description:\n\nSenior Backend Engineer (Remote, EMEA)\nWe are looking for an engineer with 5+ years of experience in Go or Java, strong knowledge of PostgreSQL and Kafka, and a track record of owning services end to end.\nResponsibilities:\n- Design and maintain high-throughput payment APIs\n- Mentor mid-level engineers\n- Participate in on-call rotation\nNice to have: experience in fintech, exposure to African markets."
        ),
        u(
            "For context I am a backend developer with Flutterwave in Lagos, been writing Java for about 6 years. I want to move into a fully remote role before the end of next year",
            e("identity", "backend developer"),
            e("fact", "Flutterwave"),
            e("fact", "Lagos"),
            e("skill", "Java", "6"),
            e("goal", "remote"),
        ),
        u(
            'My summary currently says: "Results-driven engineer with a passion for building scalable systems. I led the migration of our payments ledger from a monolith to microservices, cutting latency by 40%." Is it too generic?'
        ),
        u("I prefer the second version you gave, but make it one sentence"),
        u("Thank you so much, God bless"),
    ),
    group(
        ("Siobhan", "Ciaran"),
        by(
            "Siobhan",
            "ok so we're trying to plan the weekend in Galway, can you suggest a 2 day itinerary",
        ),
        by(
            "Ciaran",
            "I'm vegetarian so restaurant recs need proper veggie options not just a sad salad",
            e("fact", "Ciaran", "vegetarian", forbid=("user",)),
        ),
        by(
            "Siobhan",
            "and no pub crawl please lol, though I'd love to catch some trad music, it's my favourite thing about the west",
            e("preference", "Siobhan", "trad music", forbid=("user",)),
        ),
        by(
            "Ciaran",
            "we'll be driving up from mine in Cork on saturday so won't be there till 12ish",
            e("fact", "Ciaran", "Cork", forbid=("user",)),
        ),
        by("Siobhan", "add a rainy day backup, it's Galway after all"),
    ),
    chat(
        u(
            "i'm trying to get this regex to work, it should match dates like 2024-03-07 but not 2024-3-7\n\n^\\d{4}-\\d{1,2}-\\d{1,2}$"
        ),
        u("I need it to also reject month 13 lol"),
        u(
            "cool. fyi i write mostly typescript at work so if theres a JS flavour difference mention it",
            e("environment", "typescript"),
        ),
        u(
            "from now on when you give me a regex always add a short breakdown of each part under it",
            e("instruction", "breakdown"),
        ),
    ),
    chat(
        u(
            "my mother has type 2 diabetes and her HbA1c is 8.2, what breakfast options are good for her. she is pure veg, no eggs"
        ),
        u("also my father had bypass surgery last year, can he eat the same things?"),
        u("please give in hindi also so i can print for them"),
        u(
            "i am living in Pune and they are in Nagpur, so suggest something i can order online for them",
            e("fact", "Pune"),
        ),
    ),
    chat(
        u("if i lived in japan how much would a normal 1br apartment in osaka cost per month"),
        u("and hypothetically if i was making 6 million yen would that be comfortable"),
        u(
            "ok realistically i'm a nurse in ohio and i've been thinking about teaching english in japan for a year or two, is that dumb at 34",
            e("identity", "nurse"),
            e("fact", "Ohio"),
            e("identity", "34"),
            e("goal", "japan"),
        ),
        u("lol ok thanks for not calling me dumb"),
    ),
    chat(
        u(
            "I'm writing a novel set in 1980s Enugu, about three sisters who run a chemist shop. Can you help me outline chapter 4?",
            e("project", "novel"),
        ),
        u(
            "In chapter 3 Adaeze finds out the shop is in debt. Chapter 4 should be from Ngozi's point of view"
        ),
        u(
            'here\'s my opening line, be honest: "The harmattan came early that year, and with it came the man from the bank."'
        ),
        u("I don't like option 2, it reveals too much too early"),
        u(
            "thanks. I'm a pharmacist myself, that's where the idea came from lol",
            e("identity", "pharmacist"),
        ),
    ),
    chat(
        u("help me with this spanish hw, conjugate these in preterite: ir, tener, hacer, poder"),
        u(
            "im learning spanish bc my girlfriend's family is from puerto rico and i wanna actually talk to her abuela lol",
            e("goal", "spanish"),
            e("relationship", "girlfriend"),
        ),
        u("can you quiz me, 10 questions, dont give answers till the end"),
        u("6 was a typo i swear"),
    ),
    chat(
        u(
            "act as my landlord and I'll practise asking for my deposit back. you're grumpy and you say the carpet was damaged"
        ),
        u(
            "Hi, I'm calling about my deposit, I moved out on the 30th and left the flat spotless. I have photos of every room."
        ),
        u("The carpet was already stained when I moved in, it's in the inventory report!"),
        u(
            "ok break character, how did i do? fyi im 22 and this is my first flat so i have no idea what's normal",
            e("identity", "22"),
        ),
    ),
    chat(
        u("whats the actual difference between a crocodile and an alligator"),
        u("haha ok. do you ever get bored"),
        u(
            "my cat just knocked my coffee over. her name is Biscuit and she is a menace",
            e("relationship", "Biscuit"),
        ),
    ),
    chat(
        u(
            "I want to start a poultry farm in Ogun state next year, around 500 broilers to start. Help me draft a simple business plan",
            e("goal", "poultry"),
        ),
        u(
            "I currently work in a bank in Abeokuta, so I'll run it part time at first",
            e("fact", "bank"),
        ),
        u("Make the cost table in naira"),
        u("what is the normal mortality rate for broilers"),
    ),
    chat(
        u(
            "my son is 4 and won't sleep in his own bed, any tips that aren't cry it out",
            e("relationship", "son"),
        ),
        u("we've tried a sticker chart, lasted 3 days"),
        u(
            "he's got a baby sister due in february so I think that's part of it tbh",
            e("relationship", "baby"),
        ),
        u("ok I'll try the gradual retreat thing"),
    ),
    chat(
        u(
            'proofread: "I am a highly motivated individual with over ten years of experience in hospitality. I was born in Kerala and moved to Dubai in 2015, where I have managed front office teams of up to twelve people."'
        ),
        u("it's for my sister, she's applying to a hotel in Abu Dhabi"),
        u("make the last line stronger"),
    ),
    chat(
        u("solve 3x^2 - 12x + 9 = 0 and show steps"),
        u("why do you divide by 3 first"),
        u(
            "ok so im a 45 yr old going back to school for nursing and i havent done algebra since the 90s lol",
            e("identity", "45"),
            e("fact", "nursing"),
        ),
        u("can you give me 5 more like that one"),
    ),
    chat(
        u("best way to get from heathrow to kings cross with two big suitcases"),
        u("and is the elizabeth line step free"),
        u("i use a wheelchair part time so lifts matter", e("fact", "wheelchair")),
    ),
    group(
        ("Tunde", "Amaka", "Femi"),
        by(
            "Tunde",
            "Guys lets use this to plan the alumni reunion. Need venue ideas in Lekki for about 80 people",
        ),
        by(
            "Amaka",
            "I'm in Abuja now so I can't check venues physically, moved from Lagos in June",
            e("fact", "Amaka", "Abuja", forbid=("user", "Lagos")),
        ),
        by(
            "Femi",
            "I can handle the sound system, I DJ on weekends",
            e("skill", "Femi", "DJ", forbid=("user",)),
        ),
        by("Tunde", "Budget is 2.5m naira. Can the AI draft a budget breakdown?"),
        by("Amaka", "Also no jollof wars please, we're getting both Ghanaian and Naija jollof lol"),
    ),
    chat(
        u("chords for wonderwall in standard tuning without capo?"),
        u(
            "i've been playing guitar for about 15 years but never learned theory properly, is it too late",
            e("skill", "guitar", "15"),
        ),
        u("give me a 20 min a day plan for the fretboard"),
        u(
            "i'm mostly into 70s stuff, Fleetwood Mac, the Eagles, that kind of thing, so use songs like that as examples",
            e("preference", "Fleetwood Mac"),
        ),
    ),
    chat(
        u(
            "Can you summarise this email thread for me in 3 bullets\n\nFrom: Karen Hughes\nSent: 12 March 2025 09:14\nSubject: RE: Q2 roadmap\n\nHi all, as discussed I'm moving the analytics dashboard to Q3 since I'm on leave from April to June. I live in Bristol so I'll only be in the office on Tuesdays until then. Let's park the SSO work for now.\n\nKaren\n\n> From: Raj Patel\n> Can we keep the export feature in Q2? The client asked twice.\n> Raj"
        ),
        u("what does she mean by 'park' the SSO work, like cancel?"),
        u("draft a reply saying I'm fine with it but the export needs to stay in Q2"),
    ),
    chat(
        u(
            "our golden retriever Maple keeps eating socks. how do i stop this",
            e("relationship", "Maple"),
        ),
        u("she's 2 and we've had her since she was a pup"),
        u(
            "we also have a rescue greyhound called Ziggy, they get along fine",
            e("relationship", "Ziggy"),
        ),
        u("any chew toy recommendations under $30"),
    ),
    chat(
        u(
            "I'm self employed as a graphic designer in Limerick, do I need to register for VAT if I'm earning around 30k",
            e("identity", "graphic designer"),
            e("fact", "Limerick"),
        ),
        u("what if I got a client in the UK"),
        u("ok and whats the deadline for the return"),
    ),
    chat(
        u(
            "SELECT customer_id, SUM(amount)\nFROM orders\nWHERE created_at > '2024-01-01'\nGROUP BY 1\nHAVING SUM(amount) > 1000;\n\nthis runs forever on snowflake, we're on an XS warehouse",
            e("environment", "snowflake"),
        ),
        u("i want it to also include customers with zero orders"),
        u("thats exactly what i needed"),
    ),
    chat(
        u(
            "write a speech for my brother's wedding, his name is Arjun and the bride is Meera, they met in college in Manipal",
            e("relationship", "Arjun"),
        ),
        u("add a funny bit about how he failed his driving test 3 times"),
        u("make it 3 minutes when spoken"),
        u(
            "I'm more comfortable speaking in hindi than english honestly, so mix some hindi lines in",
            e("skill", "hindi"),
        ),
    ),
    chat(
        u(
            "```python\nimport asyncio, aiohttp\n\nasync def fetch(session, url):\n    async with session.get(url) as r:\n        return await r.json()\n\nasync def main(urls):\n    async with aiohttp.ClientSession() as s:\n        return await asyncio.gather(*[fetch(s, u) for u in urls])\n\nresults = asyncio.run(main(URLS))\n```\n\nException ignored in: <function _ProactorBasePipeTransport.__del__ at 0x000001F2>\nRuntimeError: Event loop is closed\n\nwhy"
        ),
        u("I'm running it on windows 11 btw, python 3.12", e("environment", "windows")),
        u("I need it to limit to 10 concurrent requests"),
        u("I like the semaphore version better"),
        u("I'm trying to keep the whole script under 50 lines"),
    ),
    chat(
        u(
            'correct my text please: "Yesterday I have went to the cinema with my colleagues and we was very happy."'
        ),
        u(
            "thanks! I am french, I live in Lyon and I want to pass the TOEIC in june, I need 850 for my master",
            e("identity", "french"),
            e("fact", "Lyon"),
            e("goal", "TOEIC"),
        ),
        u("give me 5 exercise about past simple"),
    ),
    chat(
        u(
            "I'm a secondary school maths teacher in Kent, been teaching 8 years, and I'm trying to move into data analysis. How should I frame my experience?",
            e("identity", "teacher"),
            e("fact", "Kent"),
            e("goal", "data analy"),
        ),
        u(
            "I've done the Google data analytics certificate and a fair bit of SQL on the side",
            e("skill", "SQL"),
        ),
        u("write me a LinkedIn headline, not cheesy"),
        u("no emojis"),
    ),
    chat(
        u(
            "from now on answer in metric please, I don't do feet and pounds",
            e("instruction", "metric"),
        ),
        u("how tall is the eiffel tower"),
        u("and how far is paris to brussels by train"),
    ),
    chat(
        u(
            "Here's the job ad:\n\nCommunity Development Officer – Donegal County Council\nThe successful candidate will have a degree in social science or a related field and at least 2 years' experience working with community groups. Full clean driving licence essential. Irish language an advantage.\n\nwrite me a cover letter"
        ),
        u(
            "I've a degree in social care from ATU Sligo and I've been volunteering with the local GAA club's youth section for 3 years",
            e("fact", "social care"),
        ),
        u(
            "I'm from Letterkenny originally so I know the area well, mention that",
            e("identity", "Letterkenny"),
        ),
        u("too formal, make it sound more like me"),
    ),
    chat(
        u(
            "Please make this sentence natural: 'I am wanting to ask about the possibility of the meeting.'"
        ),
        u(
            "Thank you. I am Japanese engineer working for Panasonic, I use English only in email so my speaking is weak",
            e("identity", "Japanese"),
            e("fact", "Panasonic"),
        ),
        u("one more: 'Please kindly revert back at your earliest.'"),
    ),
    chat(
        u(
            "write a short story where I am a detective in 1920s Chicago and my partner is a talking raven"
        ),
        u("make the raven more sarcastic"),
        u("end it with a twist where I was the thief all along"),
        u(
            "that was great. honestly I love noir, Raymond Chandler is my favourite author of all time",
            e("preference", "Chandler"),
        ),
    ),
    chat(
        u(
            "docker compose up gives:\n\nError response from daemon: driver failed programming external connectivity on endpoint web-db-1 (3f9c...): Bind for 0.0.0.0:5432 failed: port is already allocated"
        ),
        u("oh I have postgres installed locally too via homebrew", e("environment", "postgres")),
        u("ok changed it to 5433, works"),
    ),
    chat(
        u(
            "summarise my meeting notes into action items:\n\n- Sarah to chase legal re: NDA\n- I'll update the pricing deck by Thursday\n- Decision: move launch to the 14th\n- Tom said he's leaving end of month, need backfill\n- I'm away 3-7 June\n- budget for Q3 still TBC"
        ),
        u("put the owners in bold"),
        u("thx"),
        u(
            "and from now on when I paste notes, always give me the action items as a checklist",
            e("instruction", "checklist"),
        ),
    ),
    group(
        ("Ngozi", "Emeka"),
        by("Ngozi", "We want to start a small catering business together, can you help us name it"),
        by(
            "Emeka",
            "Ngozi is the cook, I'm handling the money side since I'm an accountant",
            e("identity", "Emeka", "accountant", forbid=("user",)),
        ),
        by(
            "Ngozi",
            "I trained at a culinary school in Accra before moving here",
            e("fact", "Ngozi", "culinary", forbid=("user",)),
        ),
        by("Emeka", "the names should work in both Igbo and English"),
        by("Ngozi", "I like 'Nne's Kitchen' but give us 5 more"),
    ),
    chat(
        u(
            "my son needs help with his personal statement for medicine, here are his points: volunteered at a care home for a year, did work experience at Royal Derby, wants to specialise in paediatrics, captain of the school rugby team",
            e("relationship", "son"),
        ),
        u("he's got AAA predicted"),
        u("make it sound like a 17 year old wrote it, not an AI"),
    ),
    chat(
        u('=IF(AND(B2>=DATE(2024,1,1),C2="Closed"),D2,0)\n\nthis returns 0 for everything'),
        u("the dates are text from an export, like 01/15/2024"),
        u(
            "thanks. fwiw I'm on excel for mac which has some weird differences",
            e("environment", "excel"),
        ),
        u(
            "also can you stop starting every answer with 'great question', it's a bit much",
            e("instruction", "great question"),
        ),
    ),
    chat(
        u(
            "You are a Victorian ghost haunting my flat. I'll talk to you. Stay in character no matter what."
        ),
        u("Why do you keep moving my keys?"),
        u("I have lived here for ten years and never seen you before!"),
        u(
            "lol ok that was fun. for real though I do live in an old Victorian terrace in Sheffield and the floorboards creak like mad",
            e("fact", "Sheffield"),
        ),
    ),
    chat(
        u("my friend just moved to Berlin and doesn't speak german, what apps should she use"),
        u("she's an architect if that helps for the job search"),
        u("and if I visited her in december would it be too cold"),
        u("I hate the cold tbh, I'd probably wait till spring", e("preference", "cold")),
    ),
    chat(
        u(
            "I'm building a home energy dashboard on a raspberry pi 4 with home assistant, want to show what my solar panels produce",
            e("project", "dashboard"),
            e("environment", "raspberry pi"),
        ),
        u(
            "here's my yaml:\n\nsensor:\n  - platform: template\n    sensors:\n      solar_today:\n        value_template: \"{{ states('sensor.inverter_energy') | float * 0.001 }}\"\n        unit_of_measurement: kWh"
        ),
        u("it shows unavailable"),
        u("i want the card to show kWh with one decimal"),
    ),
    chat(
        u("hi"),
        u("what can you do"),
        u("ok then tl;dr of the french revolution in 5 lines"),
        u("lol ok now explain it like im 5"),
    ),
    chat(
        u(
            "finally moved off windows, running fedora 40 on my desktop now. how do I get the nvidia drivers working",
            e("environment", "fedora", forbid=("windows",)),
        ),
        u("it's an RTX 3070", e("environment", "3070")),
        u("secure boot is on, does that matter"),
    ),
    chat(
        u("explain the difference between SIP and lumpsum in mutual funds"),
        u("my father-in-law keeps telling me to buy LIC policies, is that a good investment"),
        u(
            "I am 38, salaried, based in Hyderabad, and I already have a term plan",
            e("identity", "38"),
            e("fact", "Hyderabad"),
        ),
        u("ok make a table comparing the 3 options"),
        u("in simple english please, my wife will read it also", e("relationship", "wife")),
    ),
    chat(
        u(
            "```javascript\nconst items = [{ name: 'rice', price: 40, qty: 2 }, { name: 'beans', price: 20, qty: 2 }]\nconst total = items.reduce((sum, item) => sum + item.price * item.qty)\nconsole.log(total)\n```\nit's giving me [object Object]120 instead of a number"
        ),
        u("ohh the initial value. thanks"),
        u(
            "I'm teaching myself web dev, started with freeCodeCamp in January, and I'm hoping to land my first junior frontend role this year",
            e("goal", "frontend"),
        ),
        u("what should i build for my portfolio"),
        u("I don't want another todo app lol"),
    ),
    chat(
        u(
            "borrowed my roommate's car for the weekend, 2014 honda civic, and the check engine light came on, code P0420"
        ),
        u("is it safe to drive it 200 miles to my mom's and back"),
        u("ok if it's the catalytic converter how much roughly"),
    ),
    chat(
        u("i've had the worst week"),
        u("my manager took credit for my project in front of the director"),
        u("idk i just needed to vent, thanks for listening"),
        u(
            "at least I've got my pottery class tonight, it's the only thing keeping me sane lol",
            e("preference", "pottery"),
        ),
    ),
    chat(
        u("best build for a stealth archer in skyrim"),
        u("lol everyone says that. ok what about a mage, something different"),
        u("which school is best early game"),
        u("I only really play RPGs, shooters make me motion sick", e("preference", "RPG")),
    ),
    chat(
        u(
            "ggplot(df, aes(x = dose, y = response, colour = group)) +\n  geom_point() +\n  geom_smooth(method = 'lm')\n\nhow do I get separate panels per group"
        ),
        u(
            "I'm a PhD student in ecology at Aberdeen and my supervisor wants these by Friday",
            e("fact", "ecology", "Aberdeen"),
        ),
        u("I prefer the theme_minimal look"),
        u("can you also add the R² on each panel"),
    ),
    chat(
        u("if someone had 10k to invest, would you go index funds or bonds right now"),
        u("asking for my brother, he's 19 and just got a small inheritance"),
        u("he'll probably spend it on a car anyway lol"),
    ),
)
