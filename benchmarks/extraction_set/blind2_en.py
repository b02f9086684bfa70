# ruff: noqa: E501  (message texts are data: kept on one line each)
"""Blind English conversations of the extraction evaluation set, second batch.

Ids `en-blind2-*`, split `dev`. Held out at first: their figures estimated how the extractor
does on chats nobody tuned against, and are kept in docs/extraction.md. Then they became dev,
when the third batch (`blind3_en.py`) took their place as unseen chats. Written blind, with `real2_en.py`, before the
extractor was ever run on either: without reading the extractor's rules, its confidence model,
its tests, the benchmark or any other conversation of the set (only the shape of
`heldout_supplement.py` was copied).

How both files were written, and what they hold: `real2_en.py`.

The shape of a conversation is `turns.py`'s.
"""

from __future__ import annotations

from typing import Final

from turns import Conversation, by, chat, e, group, u

CONVERSATIONS: Final[tuple[Conversation, ...]] = (
    chat(
        u(
            "what can i make with leftover roast chicken, half a leek, some creme fraiche and a sad looking lemon"
        ),
        u(
            "sounds good but i'm coeliac so the pastry has to be gluten free, also my partner Tom hates mushrooms so leave those out",
            e("fact", "coeliac"),
            e("relationship", "Tom"),
        ),
        u("can you scale it for 2 and give oven temps in celsius, it's a fan oven"),
        u("lol the lemon is beyond saving, skip it"),
    ),
    chat(
        u(
            "im 29, 5'10, about 190 lbs and i want to get down to 175 by summer. i lift 3x a week but my diet is a mess",
            e("identity", "29"),
            e("goal", "175"),
        ),
        u("give me a simple meal plan, nothing fancy, i need stuff i can make in 15 min"),
        u(
            "can you swap the salmon for something else, i really can't stand fish",
            e("preference", "fish"),
        ),
        u("ok and make a grocery list from that"),
    ),
    chat(
        u(
            "Translate to english please, is for email to my landlord:\n\nHola Sr. Martínez, le escribo porque la calefacción no funciona desde el lunes. Tengo un bebé de tres meses y hace mucho frío en el piso. ¿Podría enviar a alguien esta semana? Gracias, Lucía"
        ),
        u(
            "is it polite enough? my english is not so good, I am from Valencia and I live in Dublin only since march",
            e("identity", "Valencia"),
            e("fact", "Dublin"),
        ),
        u("make it more firm, he always ignore my messages"),
        u("ok thanks, and in ireland they say boiler or heater?"),
    ),
    chat(
        u(
            "can you proofread this paragraph for my dissertation, don't change the meaning:\n\n\"In this chapter I argue that the 1834 Poor Law Amendment Act was less a break with the past than a codification of practices already widespread in southern parishes. I draw on overseers' accounts from three Sussex parishes, which shows that the workhouse test were applied unevenly long before 1834.\""
        ),
        u(
            "I'm doing an MA in history at Leeds btw, so British spelling please",
            e("fact", "history", "Leeds"),
        ),
        u("the second sentence is too long, split it"),
        u("ta, that's much better"),
    ),
    chat(
        u(
            "rewrite this email to sound more professional:\n\nhi Mark, i will not make the deadline friday because the supplier send wrong parts again. i think we need talk about change supplier. i am very frustrated. best, Jonas"
        ),
        u(
            "I am working as procurement manager at a car parts company near Stuttgart, so the tone should fit german business culture, direct but polite",
            e("identity", "procurement manager"),
        ),
        u("shorter please, max 5 lines"),
    ),
    chat(
        u(
            "```csharp\npublic async Task<IActionResult> GetOrders(int customerId)\n{\n    var orders = _context.Orders\n        .Include(o => o.Lines)\n        .Where(o => o.CustomerId == customerId)\n        .ToList();\n    return Ok(orders);\n}\n```\nwhy is this so slow with 200k rows"
        ),
        u("I want the endpoint to return a paged result, 50 per page"),
        u(
            "grand. i'm on rider on an m2 macbook if that matters for the profiler",
            e("environment", "rider"),
            e("environment", "mac"),
        ),
        u("ok the profiler says its the query not serialization"),
    ),
    chat(
        u(
            "laptop won't connect to wifi since the update, i'm on ubuntu 24.04 on a thinkpad x1 carbon",
            e("environment", "ubuntu"),
            e("environment", "thinkpad"),
        ),
        u(
            "output of nmcli:\n\nDEVICE     TYPE      STATE                   CONNECTION\nwlp0s20f3  wifi      unavailable             --\nlo         loopback  connected (externally)  lo"
        ),
        u("rfkill says soft blocked: no, hard blocked: no"),
        u("sorted it, was the firmware package. cheers"),
    ),
    chat(
        u(
            "we're building a B2B invoicing app for small kirana distributors, I'm the cofounder, stack is django + react native. need help with the GST logic",
            e("project", "invoic"),
            e("identity", "cofounder"),
            e("environment", "django"),
        ),
        u(
            "the rule is: intra-state supply = CGST + SGST, inter-state = IGST. write a python function that takes amount, rate, seller_state, buyer_state"
        ),
        u("I want the function to return a dict not a tuple"),
        u("also add tests in pytest"),
    ),
    chat(
        u("who said \"I have not failed. I've just found 10,000 ways that won't work\""),
        u("and the one that goes 'I am the master of my fate, I am the captain of my soul'"),
        u(
            "my dad used to say that one before my exams, i'm writing a speech for his 70th and want to open with it"
        ),
    ),
    chat(
        u(
            "switched from vscode to neovim last month and i'm struggling with the telescope config",
            e("environment", "neovim", forbid=("vscode", "vs code")),
        ),
        u(
            "```lua\nrequire('telescope').setup{\n  defaults = {\n    file_ignore_patterns = {\"node_modules\"},\n    layout_strategy = 'vertical',\n  },\n  pickers = {\n    live_grep = { additional_args = function() return {\"--hidden\"} end },\n  },\n}\n```\nthis still shows node_modules in live_grep"
        ),
        u("works ty. also i'm on arch btw (sorry had to)", e("environment", "arch")),
    ),
    chat(
        u(
            "write an email to my professor asking for an extension on the lab report, I had covid last week"
        ),
        u("make it less groveling lol"),
        u("her name is Dr. Okafor and the class is ORGO 2"),
    ),
    chat(
        u(
            "I am preparing for UPSC prelims 2026, optional subject is anthropology. Make a 6 month timetable",
            e("goal", "UPSC"),
        ),
        u("I can study only 5 hours on weekdays, weekends full day"),
        u("put current affairs daily 1 hour"),
    ),
    chat(
        u(
            "what's a good high protein breakfast, i'm training for my first half marathon in october",
            e("goal", "marathon"),
        ),
        u("no protein powder, i hate the taste of it", e("preference", "protein powder")),
        u("grand, and give me a week of them"),
    ),
    chat(
        u("What is different between 'I have been to' and 'I have gone to'?"),
        u(
            "I am Chinese, live in Shenzhen, my company export LED lights and I need write emails to customers everyday",
            e("identity", "Chinese"),
            e("fact", "Shenzhen"),
        ),
        u(
            "Please check: 'Dear Tom, we have received your order and will shipping it next Monday.'"
        ),
    ),
    chat(
        u(
            "Can you stop using so many bullet points? Just write normal paragraphs from now on.",
            e("instruction", "paragraph"),
        ),
        u(
            "also I'm in Australia so use Australian spelling and AUD for prices",
            e("fact", "Australia"),
            e("instruction", "AUD"),
        ),
        u("now, what's a decent budget for a 2 week trip to Bali for two"),
    ),
    chat(
        u(
            "my roommate hasn't paid rent in 2 months and the lease is in both our names. what are my options here in california",
            e("fact", "California"),
        ),
        u("he says he'll pay when he gets his bonus but he said that in march too"),
        u("draft a text to him that's firm but not mean"),
    ),
    chat(
        u(
            "I joined Zomato as SDE-2 last week, earlier I was in TCS for 4 years. Need tips on their code review culture",
            e("fact", "Zomato", forbid=("TCS",)),
            e("identity", "SDE"),
        ),
        u("they use Go and Kubernetes heavily, i have only done Java spring", e("skill", "spring")),
        u("make me a 30 day plan to get comfortable with Go"),
    ),
    chat(
        u(
            "is it normal to feel dizzy after starting sertraline, I started 50mg on monday",
            e("fact", "sertraline"),
        ),
        u(
            "ok i'll ring the gp. i also have asthma if that matters for anything",
            e("fact", "asthma"),
        ),
        u("thanks, feel a bit better knowing that"),
    ),
    chat(
        u(
            "rewrite these lyrics to be less cringe:\n\nI was born in a small town, never had a dime\nNow I'm living in the city, working overtime\nMy mama said boy you're gonna shine\nBut the city lights ain't never been mine"
        ),
        u("keep the rhyme scheme AABB"),
        u(
            "it's for our first gig with my band, we're called Static Harbour",
            e("project", "Static Harbour"),
        ),
    ),
    chat(
        u(
            "hello, I need to practice english conversation for job interview. I am software tester with 3 years of experience, I live in Curitiba",
            e("identity", "tester"),
            e("fact", "Curitiba"),
        ),
        u("can you ask me questions like a interviewer from a american company"),
        u(
            "My answer: I am very organized person and I like to find bugs before the client find them. In my last project I found a critical bug in payment."
        ),
        u("please correct my mistakes after every answer, not only in the end"),
    ),
    group(
        ("Priya", "Jake"),
        by("Priya", "ok settle this, is a jaffa cake a cake or a biscuit"),
        by(
            "Jake",
            "it's a cake, legally. I'm a solicitor I'd know lol",
            e("identity", "Jake", "solicitor", forbid=("user",)),
        ),
        by("Priya", "you do conveyancing Jake that's not the same thing"),
        by(
            "Priya",
            "anyway we need a cleaning rota for the 3 of us, I work nights at the hospital so I can't do mornings",
            e("fact", "Priya", "hospital", forbid=("user",)),
        ),
        by(
            "Jake",
            "and I'm allergic to bleach so someone else does the bathroom lmao",
            e("fact", "Jake", "bleach", forbid=("user",)),
        ),
    ),
    chat(
        u("how do i bleed a radiator"),
        u("its a combi boiler, pressure dropped to 0.5 after"),
        u(
            "we bought our first house in Derby in august and everything is breaking lol",
            e("fact", "Derby"),
        ),
    ),
    chat(
        u(
            "my fiancée wants us to relocate to Canada after the wedding but my parents are old and I'm the only son",
            e("relationship", "fianc"),
        ),
        u("she's a nurse so she can get express entry easily"),
        u(
            "I'm 31, I work in oil and gas in Port Harcourt, I'm not sure I want to start again from zero",
            e("identity", "31"),
            e("fact", "Port Harcourt"),
            e("fact", "oil"),
        ),
        u("give me pros and cons honestly"),
    ),
    group(
        ("Mike", "Dana"),
        by("Dana", "we need a theme for Lily's 6th birthday, she's obsessed with sharks right now"),
        by("Mike", "keep it under 300 bucks total"),
        by(
            "Dana",
            "our place is small, we're in a 2 bed apartment in Queens",
            e("fact", "Dana", "Queens", forbid=("user",)),
        ),
        by(
            "Mike",
            "I'll handle the cake, I did a pastry course years ago so I can actually bake",
            e("skill", "Mike", "bak", forbid=("user",)),
        ),
        by("Dana", "lol he burned the toast this morning"),
    ),
    chat(
        u(
            "Write a short bio for my friend Carla, she's a ceramic artist who lives in Lisbon and grew up in Mozambique. It's for her exhibition flyer"
        ),
        u("make it third person and under 80 words"),
        u("perfect, she'll love it"),
    ),
    chat(
        u("suggest a laptop under 70k for coding and light gaming"),
        u(
            "I mostly do android dev in kotlin and android studio eats RAM",
            e("skill", "kotlin"),
            e("environment", "android studio"),
        ),
        u("no HP please, had bad experience with their service", e("preference", "HP")),
        u("ok between the lenovo and asus which one"),
    ),
    chat(
        u("is it better to pay off my student loans or invest in my 401k match first"),
        u(
            "loans are 28k at 5.8%, I'm 26 and make 72k as a UX designer in Austin",
            e("identity", "26"),
            e("identity", "UX designer"),
            e("fact", "Austin"),
        ),
        u("ok what if rates go down next year"),
    ),
    group(
        ("Rahul", "Sneha", "Karthik"),
        by(
            "Rahul",
            "guys let's ask it to explain dynamic programming for tomorrow's placement test",
        ),
        by(
            "Sneha",
            "I already know DP from competitive programming, I'm 5 star on codechef lol, explain knapsack for these two",
            e("skill", "Sneha", "codechef", forbid=("user",)),
        ),
        by(
            "Karthik",
            "I'm from mechanical branch so please go slow",
            e("fact", "Karthik", "mechanical", forbid=("user",)),
        ),
        by("Rahul", "can you give 3 problems with increasing difficulty"),
        by("Karthik", "and write the code in C++ only, that's what the test allows"),
    ),
    chat(
        u("give me a recipe for a quick weeknight curry"),
        u(
            "I can't handle spice at all, like even black pepper is a lot for me lol",
            e("preference", "spic"),
        ),
        u("and I'm cooking for my two kids, they're 7 and 9", e("relationship", "7", "9")),
    ),
    chat(
        u("how do you say 'I miss you' in Yoruba"),
        u(
            "I speak Igbo and English but my wife is Yoruba and I want to surprise her",
            e("skill", "Igbo"),
            e("relationship", "wife"),
        ),
        u("teach me 5 sweet phrases, with pronunciation"),
    ),
    chat(
        u(
            "I want to run my first full marathon next year, at the moment I do about 20km a week",
            e("goal", "marathon"),
        ),
        u("I have a dodgy knee from football years ago", e("fact", "knee")),
        u("make a 16 week plan"),
        u("can you put it in a table"),
    ),
    chat(
        u(
            "quick update, I'm no longer at Deloitte, started at a fintech called Monzo this week",
            e("fact", "Monzo", forbid=("Deloitte",)),
        ),
        u(
            "they're all on macbooks and notion, which is new for me after years of windows and confluence",
            e("environment", "notion", forbid=("confluence",)),
        ),
        u("how do i do the windows key + shift + s screenshot thing on mac"),
    ),
    chat(
        u("any good podcasts like No Such Thing As A Fish? i listen on my commute"),
        u(
            "I love anything about obscure history, and I can't stand true crime",
            e("preference", "history"),
            e("preference", "true crime"),
        ),
        u("ooh the rest is history, i'll try that"),
    ),
    chat(
        u(
            "meal prep ideas for the week, I'm vegan and there's no microwave at work",
            e("fact", "vegan"),
        ),
        u("budget is like £30"),
        u(
            "I love chickpeas but the texture of tofu makes me gag",
            e("preference", "chickpea"),
            e("preference", "tofu"),
        ),
    ),
    chat(
        u(
            "I am Egyptian doctor preparing for PLAB exam to work in UK, give me a study plan for 3 months",
            e("identity", "Egyptian"),
            e("identity", "doctor"),
            e("goal", "PLAB"),
        ),
        u(
            "I work in Cairo now in public hospital, night shifts, so I have little time",
            e("fact", "Cairo"),
        ),
        u("Focus on ethics station please, this is my weak point"),
    ),
    chat(
        u(
            "Please always reply in British English and keep answers under 150 words unless I ask for more",
            e("instruction", "British"),
            e("instruction", "150"),
        ),
        u("what's the capital of Kazakhstan now, they changed it right?"),
        u("and the name before that?"),
    ),
    chat(
        u(
            "our cat Mochi died last month and we just adopted a kitten called Pepper",
            e("relationship", "Pepper"),
        ),
        u("how do I introduce her to the dog"),
        u("the dog is a 9 year old beagle, very chill", e("relationship", "beagle")),
    ),
    chat(
        u(
            "I grew up in Chennai but I've been in Manchester for 12 years and I miss proper filter coffee. How do I make it without the steel filter",
            e("identity", "Chennai"),
            e("fact", "Manchester"),
        ),
        u("I do have a moka pot"),
        u("ok which coffee powder closest to Narasu's can I get in the UK"),
    ),
    chat(
        u(
            'can you make this college essay flow better, its for common app:\n\n"When I was twelve, my grandmother taught me to make tamales. Every December our kitchen in San Antonio turned into an assembly line: my tías spreading masa, my cousins arguing over the radio, my abuela correcting everyone\'s folds without looking up. I was bad at it. My tamales leaked, unraveled, fell apart in the steamer. But every year she handed me another husk. What I learned in that kitchen is that patience is not waiting, it is trying again with your hands already dirty."'
        ),
        u("I need it under 650 words, the full thing is like 780 rn"),
        u("the ending feels cheesy, i want it to end on the kitchen image not a lesson"),
        u(
            "ok i like this a lot. im applying for biomedical engineering btw, mostly state schools in texas",
            e("goal", "biomedical"),
        ),
        u("thank you!!"),
    ),
    chat(
        u(
            'what does this clause mean in plain english:\n\n"12.3 The Tenant shall not, without the prior written consent of the Landlord (such consent not to be unreasonably withheld), assign, underlet, charge or part with possession of the whole or any part of the Property."'
        ),
        u("so can i get a lodger or not"),
        u("the landlord is my uncle tbh so it's probably fine lol"),
        u("ok write a short email asking him for consent then, keep it friendly"),
    ),
    chat(
        u("what's a nice reading for a humanist wedding, nothing religious"),
        u("it's for my best friend Aoife, I'm her bridesmaid and she asked me to pick"),
        u("something under 2 mins"),
        u("perfect, the second one made me cry"),
    ),
    chat(
        u(
            "Can you explain what means 'I'm easy' in British english? My colleague say this all the time"
        ),
        u(
            "I am Polish, working in a warehouse in Northampton for 3 years and I want to improve my english to get a office job",
            e("identity", "Polish"),
            e("fact", "Northampton"),
            e("goal", "office"),
        ),
        u("Give me 10 common phrases from office"),
        u("and 'cheers' is always thank you?"),
    ),
    chat(
        u(
            "getting CORS errors calling my flask api from the react app\n\nAccess to fetch at 'http://localhost:5000/api/login' from origin 'http://localhost:3000' has been blocked by CORS policy: Response to preflight request doesn't pass access control check: No 'Access-Control-Allow-Origin' header is present on the requested resource."
        ),
        u("i added CORS(app) but still same"),
        u(
            "here's the route\n\n@app.route('/api/login', methods=['POST'])\ndef login():\n    data = request.get_json()\n    user = User.query.filter_by(email=data['email']).first()\n    if not user or not user.check_password(data['password']):\n        return jsonify(error='bad credentials'), 401\n    session['uid'] = user.id\n    return jsonify(ok=True)"
        ),
        u("oh wait the preflight is OPTIONS, do i need to add that to methods"),
        u("still failing. I'm using credentials: 'include' in the fetch if that matters"),
        u("THAT WAS IT. supports_credentials=True. 3 hours of my life lol"),
        u(
            "this is for my side project btw, a habit tracker i've been building on weekends for a few months",
            e("project", "habit tracker"),
        ),
    ),
    chat(
        u(
            "translate to hindi: 'Dear residents, the water supply will be shut from 10 am to 4 pm on Sunday due to tank cleaning. Kindly store water in advance. – Secretary, Green Park Society'"
        ),
        u(
            "I'm the secretary of our housing society this year so I'll be sending these a lot",
            e("identity", "secretary"),
        ),
        u("also in marathi please"),
    ),
    chat(
        u(
            "Going forward, don't suggest recipes with pork or alcohol, I'm Muslim and only eat halal",
            e("instruction", "pork"),
            e("fact", "halal"),
        ),
        u("ok what's a good slow cooker dish for sunday"),
        u("lamb sounds great, how long on low"),
    ),
    chat(
        u("make a 40 min lesson plan on the water cycle for 3rd class"),
        u(
            "I teach in a small rural school in Mayo, 3rd and 4th class together in one room",
            e("identity", "teach"),
            e("fact", "Mayo"),
        ),
        u("make the activity something they can do outside if it's not lashing"),
        u("and a worksheet with 5 questions"),
    ),
)
