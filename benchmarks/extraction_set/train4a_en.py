# ruff: noqa: E501  (message texts are data: kept on one line each)
"""A new training batch of English conversations of the extraction evaluation set, ids `en-train4a-*`, split `dev`, used to train the extractor's learned stage. Speakers are mostly from the US, Canada and Australia (with some UK, Irish, Indian, Nigerian and non-native English), and the topics lean to work, tech, money, parenting, fitness and travel. The conversations were written blind: without reading the extractor, its tests, the benchmark or any other conversation of the set; only `turns.py`'s shape was used, and the labels were set before any measurement."""

from __future__ import annotations

from typing import Final

from turns import Conversation, by, chat, e, group, u

CONVERSATIONS: Final[tuple[Conversation, ...]] = (
    chat(
        u(
            "ok so i finally have a 401k match at the new job (moved from a startup to Intuit in march) and im trying to figure out how much to put in. theyre matching 50% up to 6%. i make 128k",
            e("fact", "intuit"),
        ),
        u("is it dumb to also do a roth ira on top of that"),
        u("what if i max the 401k, would that be 23k this year or is it different"),
        u("ok cool. btw i'm 31 so i feel like i'm behind lol", e("identity", "31")),
    ),
    chat(
        u(
            "can you make this email sound less passive aggressive\n\nHi Derek,\n\nAs I mentioned in my previous three emails, the invoice for October is still outstanding. I'm sure you're very busy but I would appreciate it if you could let me know when we can expect payment. I have attached it again for your convenience.\n\nThanks,\nMaddie"
        ),
        u("better but now its too soft, he's 60 days late"),
        u("perfect. i'll send that"),
    ),
    chat(
        u(
            "whats a good 4 day split for someone who can only train mon tue thu fri. i'm doing a cut right now, 5'10 around 195lbs, been lifting about 6 years on and off",
            e("skill", "lift", "6 year"),
        ),
        u(
            "i have a bad left shoulder (labrum tear from hockey in college) so no barbell overhead press pls",
            e("fact", "shoulder"),
        ),
        u(
            "can you swap the incline bench for something else too, the gym near me only has one incline and its always taken"
        ),
        u("ok give me that as a table"),
        u(
            "and going forward whenever you give me workouts just put them in a table with sets x reps, way easier to read on my phone at the gym",
            e("instruction", "table"),
        ),
    ),
    chat(
        u("explain kubernetes like im 5"),
        u("ok now like im a backend dev who has used docker compose but never k8s"),
        u("what's the difference between a deployment and a statefulset"),
        u("and when would i use a daemonset"),
    ),
    chat(
        u(
            "my daughter is 4 and she's started refusing to go to daycare in the mornings, full meltdown at the door. my husband and i both work full time so we can't really just keep her home. any ideas",
            e("relationship", "daughter"),
            e("relationship", "husband"),
        ),
        u("she's been at the same place since she was 1 so its not a new thing"),
        u("we did have a new baby in august, could that be it", e("relationship", "baby")),
        u(
            "ok the special job thing is a good idea. can you write a little social story i can read to her about going to daycare, her name is Poppy",
            e("relationship", "poppy"),
        ),
        u("make it rhyme a bit, she loves the Gruffalo"),
    ),
    chat(
        u(
            "Traceback (most recent call last):\n  File \"/Users/jchen/dev/ledger/app.py\", line 42, in <module>\n    main()\n  File \"/Users/jchen/dev/ledger/app.py\", line 37, in main\n    total = sum(row['amount'] for row in rows)\nTypeError: unsupported operand type(s) for +: 'int' and 'str'\n\nwhy"
        ),
        u("oh theyre coming from a csv. ok how do i convert them, some are like '$1,200.50'"),
        u("i want the function to return a Decimal not a float"),
        u(
            "nice that works. i'm building a little personal budgeting tool for myself and my wife, just flask + sqlite, nothing fancy",
            e("project", "budget"),
            e("relationship", "wife"),
        ),
        u("should i bother with an ORM or just raw sql"),
    ),
    chat(
        u(
            "act as a hiring manager at a mid size fintech and interview me for a senior product manager role. ask one question at a time"
        ),
        u(
            "sure. so in my current role i lead a team of 6 and we own the onboarding funnel, last year we cut drop off by 18% by killing the KYC step on mobile and deferring it to first deposit"
        ),
        u(
            "hmm i'd say the hardest tradeoff was with compliance, they wanted it upfront. we ran a 2 week pilot in one state to prove risk didnt go up"
        ),
        u("ok pause. how did i do honestly"),
        u(
            "for context i'm actually a product manager at Wealthsimple right now in Toronto, this is for a real interview next week with a US company so be harsh",
            e("identity", "product manager"),
            e("fact", "wealthsimple"),
            e("fact", "toronto"),
        ),
    ),
    chat(
        u("how many days do i need for Kyoto"),
        u(
            "we're a family of 5, kids are 9, 7 and 3 so we can't do crazy long days",
            e("relationship", "kid"),
        ),
        u("is the JR pass still worth it after the price hike"),
        u("ok we fly into Osaka and out of Tokyo. 14 days total. make me a rough plan"),
        u(
            "too much temples lol, the kids will riot. swap some for stuff like the aquarium or nintendo museum"
        ),
    ),
    chat(
        u(
            "fix grammar only dont change the wording: 'I have been working as a registered nurse for 8 years in the ICU, and I am passionate about patient advocacy. I am currently pursuing my MSN and hope to become a nurse practitioner.'"
        ),
        u(
            "thanks. its for my sister's application, she's too nervous to ask chatgpt herself lol",
            e("relationship", "sister"),
        ),
    ),
    chat(
        u(
            "im trying to get this regex to work, it should match canadian postal codes like K1A 0B1 with or without the space\n\n^[A-Z]\\d[A-Z] \\d[A-Z]\\d$"
        ),
        u("also lowercase"),
        u("cool. what's the js version"),
    ),
    chat(
        u(
            "hey so i'm a high school math teacher in Brisbane and i want to make a budgeting project for my year 10s, like they get a fake salary and have to rent a flat, buy groceries etc. can you help me design it",
            e("identity", "teacher"),
            e("fact", "brisbane"),
        ),
        u("use aussie prices, like realistic 2024 rent in brisbane"),
        u("they each get a random job card, give me 12 job cards with salaries"),
        u("add a super contribution line so they see the 11.5%"),
        u(
            "this is great. i might turn it into a whole unit, i've been wanting to put together a proper financial literacy course for our school for ages",
            e("goal", "financial literacy"),
        ),
    ),
    chat(
        u("what does 'net 30' mean on an invoice"),
        u("and if i'm a freelancer can i charge late fees in california"),
        u(
            "yeah i went freelance in january after getting laid off from Meta, doing mostly react native contract work now",
            e("identity", "freelanc"),
            e("skill", "react native"),
        ),
        u("what should my hourly rate be roughly"),
    ),
    chat(
        u(
            "translate to spanish: 'Hi, my name is Karen and I'm allergic to peanuts. Does this dish contain any nuts or peanut oil?'"
        ),
        u(
            "thats for my mom, she's going to Mexico city next month and doesn't speak any spanish",
            e("relationship", "mom"),
        ),
        u(
            "can you make a little card with that plus 'where is the bathroom' and 'I need a doctor'"
        ),
    ),
    chat(
        u(
            "I use neovim with lazy.nvim and i want to set up a python LSP. pyright or basedpyright?",
            e("environment", "neovim"),
        ),
        u(
            "ok basedpyright. here's my config, it's not attaching\n\nreturn {\n  'neovim/nvim-lspconfig',\n  config = function()\n    require('lspconfig').basedpyright.setup({})\n  end,\n}"
        ),
        u("still nothing. :LspInfo says 0 clients attached"),
        u("omg it wasnt installed. mason. ok thx"),
    ),
    chat(
        u(
            "write a linkedin post announcing that I'm starting a new role. keep it humble not cringe"
        ),
        u(
            "details: leaving Shopify after 5 years, joining Stripe as a staff engineer on the payments infra team, starting monday",
            e("fact", "stripe", forbid=("shopify",)),
            e("identity", "staff engineer"),
        ),
        u("too many emojis. zero emojis"),
        u("shorter. like 4 sentences"),
    ),
    chat(
        u(
            "rewrite this so it sounds like a cover letter, first person:\n\nI grew up on a dairy farm in Wisconsin and I have been fixing tractors since I was 12. I am now finishing my diesel technology certificate and I want to work for a company that values hands on experience."
        ),
        u("make it less folksy"),
        u("ok good, he can take it from here. it's for my nephew"),
    ),
    chat(
        u("what's the tax treatment of an RESP withdrawal in canada"),
        u(
            "my son is starting at UBC in september so we're going to start pulling from it",
            e("relationship", "son"),
        ),
        u("what's the difference between EAP and PSE withdrawals"),
        u("ok and does he pay the tax or do we"),
    ),
    chat(
        u(
            "heads up for the rest of this chat and in general, i'm vegetarian but i eat fish, so pescatarian i guess. keep that in mind for recipes",
            e("fact", "pescatarian"),
        ),
        u("need a high protein dinner i can meal prep for 4 days, like 40g protein per serving"),
        u("no tofu, i can't stand the texture", e("preference", "tofu")),
        u("what if i used tempeh instead would that work"),
        u("ok give me the grocery list"),
    ),
    chat(
        u(
            "is it normal for a 2 year old to not say many words? my pediatrician said to wait and see but my mother in law keeps saying something's wrong"
        ),
        u("he says maybe 15 words, mama dada ball dog etc. understands everything though"),
        u("ok. how do i get an early intervention eval in texas without a referral"),
        u("thank you. this made me feel a lot better honestly"),
    ),
    chat(
        u(
            "SELECT c.name, SUM(o.total)\nFROM customers c\nJOIN orders o ON o.customer_id = c.id\nWHERE o.created_at > '2024-01-01'\nGROUP BY c.id\n\npostgres says column c.name must appear in group by, but mysql was fine with this??"
        ),
        u(
            "got it. we're migrating our whole backend off mysql to postgres at work and this kind of thing is everywhere",
            e("project", "postgres"),
        ),
        u("is there a linter that catches these before runtime"),
    ),
    chat(
        u(
            "can u summarize this article in 3 bullets [pasted]\n\nThe Federal Reserve held interest rates steady on Wednesday, keeping the benchmark rate in a range of 5.25% to 5.5%, while signaling that cuts could come later this year if inflation continues to ease. Chair Jerome Powell said the committee wants 'greater confidence' that inflation is moving sustainably toward 2% before lowering rates. Markets rallied on the news, with the S&P 500 closing up 1.2%."
        ),
        u("so should i wait to refinance my mortgage"),
        u(
            "we locked in at 7.1% last year on our place in Phoenix, which hurts",
            e("fact", "phoenix"),
        ),
        u("what's the breakeven usually on a refi, closing costs would be like 6k"),
    ),
    chat(
        u(
            "pretend you're my nan and tell me a bedtime story about a dragon who's scared of the dark"
        ),
        u("aww. now do one where the dragon learns to fly"),
        u("lol ok that's enough, good night"),
    ),
    chat(
        u(
            "what's a realistic marathon time goal for a first timer who runs about 30 miles a week right now"
        ),
        u("im 44, female, my half PR is 1:52", e("identity", "44")),
        u("race is Chicago in october, i got in through the lottery!!", e("goal", "chicago")),
        u(
            "ok build me an 18 week plan, i can do long runs on sunday only because saturdays i have my kids' soccer",
            e("relationship", "kid"),
        ),
        u("make the tuesday runs shorter"),
        u(
            "actually also I hate treadmills with a passion so nothing that requires one",
            e("preference", "treadmill"),
        ),
    ),
    chat(
        u("what's better for a small business, quickbooks or xero"),
        u("it's a landscaping company, 8 employees, in Ontario"),
        u(
            "my dad's company, i'm just helping him get off paper invoices lol. he's 67 and refuses to learn anything new",
            e("relationship", "dad"),
        ),
        u("which one has the easiest mobile app"),
    ),
    chat(
        u(
            "def chunk(lst, n):\n    return [lst[i:i+n] for i in range(0, len(lst), n)]\n\nis there a builtin for this"
        ),
        u("itertools.batched is 3.12 only? we're stuck on 3.10 at work", e("environment", "3.10")),
        u("ok ill keep mine. add type hints"),
    ),
    chat(
        u(
            "I'm a 26yo from Lagos currently doing my masters in data science at University of Manchester. I want to write a personal statement for a PhD in machine learning, can you help me structure it",
            e("identity", "26"),
            e("identity", "lagos"),
            e("fact", "manchester", "data science"),
            e("goal", "phd"),
        ),
        u(
            "my research interest is fairness in credit scoring models, especially for thin file borrowers in West Africa"
        ),
        u(
            "here's my draft intro: 'Ever since I was a child, I have been fascinated by numbers. My father was a banker and I remember watching him...'"
        ),
        u(
            "yeah i know the 'ever since i was a child' thing is cliche lol. give me 3 alternative openings"
        ),
        u("the second one. expand it"),
    ),
    chat(
        u(
            "Please proofread:\n\nDear Parents,\n\nOur Grade 3 class will be going on a field trip to the Royal Ontario Museum on Friday May 17. Students should bring a packed lunch and wear there school t-shirt. We still need two parent volunteers, if your interested please email me.\n\nMs. Okafor"
        ),
        u(
            "thanks! btw can you also write the reply i'd send as a parent volunteering, my kid is in that class",
            e("relationship", "kid"),
        ),
    ),
    chat(
        u(
            "i want you to always answer in plain text with no markdown headers, they render weird in my terminal client",
            e("instruction", "markdown"),
        ),
        u("how do i tail a log file and grep for ERROR at the same time"),
        u("and only show the last 5 matches"),
        u("perfect"),
    ),
    chat(
        u("Can you help me plan a 10 day trip to Ireland in september? We'll be driving"),
        u(
            "we're in Calgary so driving on the left is going to be interesting lmao",
            e("fact", "calgary"),
        ),
        u(
            "we want to do the wild atlantic way but not rush. prefer small towns over dublin",
            e("preference", "small town"),
        ),
        u("what about the cliffs of moher, is it worth it or too touristy"),
    ),
    group(
        ("Jess", "Tom"),
        by(
            "Jess", "ok we need to book the cabin for the long weekend. Tom what dates work for you"
        ),
        by("Tom", "anything after the 12th, i'm in Vancouver for the conference until then"),
        by(
            "Jess",
            "can the bot find something near Tofino that takes dogs, Biscuit is coming obviously",
            e("relationship", "Jess", "biscuit", forbid=("user",)),
        ),
        by(
            "Tom",
            "and with a hot tub pls. also heads up I don't drink anymore so don't plan it around wineries",
            e("preference", "Tom", "drink", forbid=("user",)),
        ),
        by("Jess", "budget is like 400 a night max split two ways"),
    ),
    chat(
        u(
            "Write a python script that renames all the photos in a folder by their EXIF date, like 2024-06-01_143022.jpg"
        ),
        u("some of them are HEIC from my iphone", e("environment", "iphone")),
        u("pillow-heif, ok. i'm on windows btw so paths", e("environment", "windows")),
        u("it crashed on a file with no exif, skip those and print the name"),
        u("great. add a --dry-run flag"),
    ),
    chat(
        u(
            "I'm 38 weeks pregnant and can't sleep, what positions are actually safe",
            e("fact", "pregnan"),
        ),
        u("my OB said left side is best but my hips are killing me"),
        u("pillow between the knees, ok trying tonight"),
    ),
    chat(
        u(
            "ok so context: i'm a backend engineer, been doing go for about 4 years, before that java. i want to get better at system design for interviews. can you quiz me",
            e("identity", "backend engineer"),
            e("skill", "go", "4 year"),
        ),
        u("design a url shortener"),
        u(
            "i'd use a base62 encoding of an auto increment id, stored in postgres, with redis in front for the hot reads"
        ),
        u("ok what about collisions if we shard the id generator"),
        u("snowflake ids. right"),
        u("next question, something harder"),
    ),
    chat(
        u("how much should i tip in australia"),
        u("ok so basically nothing, nice. what about uber"),
        u(
            "we're heading to melbourne and sydney for 3 weeks in feb, first time outside the US for me actually",
            e("goal", "melbourne"),
        ),
    ),
    chat(
        u(
            "summarize this job post and tell me if i'm a good fit:\n\nSenior Data Engineer - Remote (US)\nWe are looking for a Senior Data Engineer with 5+ years of experience building batch and streaming pipelines. Must have: Python, Spark, Airflow, dbt, Snowflake. Nice to have: Kafka, Terraform. You will own our ingestion layer and mentor two junior engineers. Salary: $165k-$195k + equity."
        ),
        u(
            "i have 6 years, mostly python airflow and bigquery, never used snowflake or spark in prod. dbt yes",
            e("skill", "airflow"),
            e("skill", "dbt"),
        ),
        u("should i still apply"),
        u("write 2 sentences for the cover letter addressing the snowflake gap"),
    ),
    chat(
        u(
            "what's a good name for a golden retriever puppy, we're picking her up saturday!!",
            e("relationship", "golden retriever", "puppy"),
        ),
        u("something food related maybe"),
        u(
            "omg Maple. yes. my partner is going to love that, we're in Montreal so very on brand lol",
            e("relationship", "maple"),
            e("fact", "montreal"),
        ),
        u("what should i buy before she comes home"),
    ),
    chat(
        u(
            "proofread the following, it's a message from a character in my novel:\n\n'I am thirty-four years old and I have never once been to the ocean. My brother says I am a coward. Maybe he is right.'"
        ),
        u("does the rhythm work"),
        u(
            "ok i'm going to keep writing. it's a literary thriller set in rural Saskatchewan, my first novel, about 40k words in",
            e("project", "novel"),
        ),
    ),
    chat(
        u("how do i convert celsius to fahrenheit in my head fast"),
        u(
            "double and add 30, got it. can you just give me temps in fahrenheit by default from now on? i'm american lol i can't think in celsius",
            e("instruction", "fahrenheit"),
            e("identity", "american"),
        ),
        u("what's the weather usually like in Lisbon in march"),
    ),
    chat(
        u(
            "help me write a reply to this email from my landlord:\n\n'Hi, just letting you know that rent will be going up by $350 starting next lease term. Let me know if you plan to renew. - Gary'"
        ),
        u("i want to negotiate, we've been here 3 years and never late once"),
        u("also mention the dishwasher has been broken since july"),
        u("is 350 even legal in portland, i thought there was a cap", e("fact", "portland")),
    ),
    group(
        ("Priya", "Arjun", "Sam"),
        by(
            "Priya",
            "ok team, let's figure out the retro format for friday. bot can you suggest 3 options",
        ),
        by("Arjun", "nothing with sticky notes on miro please, i've done 40 of those this year"),
        by(
            "Sam",
            "i joined the team like 2 weeks ago so honestly anything works for me, i'm still figuring out who owns what",
            e("fact", "Sam", "team", forbid=("user",)),
        ),
        by(
            "Priya",
            "the sailboat one sounds fun. also fyi I'm out next week, my sister's getting married in Jaipur",
            e("relationship", "Priya", "sister", forbid=("user",)),
        ),
        by("Arjun", "sailboat it is. I'll run it since Priya's away"),
    ),
    chat(
        u("what is the difference between ETFs and index funds"),
        u("VOO vs VTI"),
        u(
            "i just opened my first brokerage account on fidelity, 23 and trying to actually start investing this year",
            e("identity", "23"),
            e("environment", "fidelity"),
            e("goal", "invest"),
        ),
        u("how much should i keep in cash vs invest"),
    ),
    chat(
        u("kid friendly dinner that's not pasta. i'm so tired of pasta"),
        u("my oldest is dairy free so no cheese on everything", e("relationship", "oldest")),
        u("sheet pan chicken fajitas sounds good, recipe pls"),
        u("double it"),
    ),
    chat(
        u(
            "git rebase -i HEAD~5 says 'cannot rebase: You have unstaged changes.' but git status shows nothing"
        ),
        u("oh it was a submodule. how do i ignore submodule changes for the rebase"),
        u("thank you this has been driving me nuts for an hour"),
    ),
    chat(
        u(
            "quick q, i switched from vscode to zed last month and i miss the gitlens blame thing. is there an equivalent",
            e("environment", "zed", forbid=("vscode",)),
        ),
        u("inline blame, ok found it. what about a vim mode, is it any good"),
        u("nah i'll stay without it"),
    ),
    chat(
        u(
            "I'm a physio in Perth and I want to make a simple handout for patients after ACL reconstruction, weeks 0-6. Keep it in plain language",
            e("identity", "physio"),
            e("fact", "perth"),
        ),
        u("add a section on red flags when to call us"),
        u("reading level is still too high, aim for year 6"),
        u("perfect, thanks heaps"),
    ),
    chat(
        u("You are a Shakespearean actor. Recite a monologue about losing your wifi password."),
        u("lmaooo. now as a pirate"),
    ),
    chat(
        u(
            "how do i split costs fairly with my boyfriend, i make 95k and he makes 52k. we're moving in together in june",
            e("relationship", "boyfriend"),
            e("goal", "in together"),
        ),
        u("proportional sounds fair. what about groceries, he eats like twice what i do lol"),
        u(
            "ok and what about the cat, she's mine from before so should i pay for all her stuff",
            e("relationship", "cat"),
        ),
    ),
    chat(
        u(
            "I want this function to be faster, it's called like 10k times per request\n\nfunction findUser(users, id) {\n  for (let i = 0; i < users.length; i++) {\n    if (users[i].id === id) return users[i];\n  }\n  return null;\n}"
        ),
        u("users changes rarely. should i memoize the map"),
        u("ok. write it in typescript with a WeakMap cache"),
    ),
    chat(
        u(
            "Can you help me with my speech for my best friend's wedding? I'm the maid of honor. We met in 7th grade in Halifax"
        ),
        u(
            "she's marrying a guy named Dev, they met hiking in Banff. i want it to be funny but make people cry a little at the end"
        ),
        u("too long, 3 min max"),
        u("the joke about the canoe is perfect keep that"),
    ),
    chat(
        u("what's the ideal macros split for fat loss"),
        u(
            "i'm type 1 diabetic so i need to be a bit careful with really low carb",
            e("fact", "diabet"),
        ),
        u("ok lets do 40/30/30. give me a sample day at 2000 cal"),
        u("i also don't eat pork", e("preference", "pork")),
        u("good"),
    ),
    chat(
        u(
            "Hi, I am from Brazil and I work as a QA engineer in Toronto since two years. My english is not perfect so please correct me when I write wrong, but keep your answers simple",
            e("identity", "brazil"),
            e("identity", "qa"),
            e("fact", "toronto"),
            e("instruction", "correct"),
        ),
        u("I need to write test cases for a login page. What I should include?"),
        u("What means 'boundary value'?"),
        u("Ok thanks, now I understand better"),
    ),
    group(
        ("Mike", "Dana"),
        by(
            "Mike",
            "ok bot we need to figure out our budget for next year. combined take home is about 9400/month",
        ),
        by(
            "Dana",
            "and we want to max out both roth iras again, plus save for the down payment. we're hoping to buy in the next 2 years",
            e("goal", "Dana", "buy", forbid=("user",)),
        ),
        by(
            "Mike",
            "don't forget daycare is 2100 for the twins",
            e("relationship", "Mike", "twin", forbid=("user",)),
        ),
        by("Dana", "can you put it in a 50/30/20 breakdown and tell us where we're over"),
        by("Mike", "we're definitely over on eating out lol"),
    ),
    chat(
        u(
            "I've been at Deloitte for 3 years as a consultant and honestly I'm burnt out. thinking about going to business school, how do I know if an MBA is worth it",
            e("fact", "deloitte"),
            e("identity", "consultant"),
            e("goal", "mba"),
        ),
        u("GMAT or GRE"),
        u(
            "what are the part time programs in chicago like, i don't want to quit and lose the salary",
            e("fact", "chicago"),
        ),
    ),
    chat(
        u("docker compose up gives me 'port is already allocated' for 5432"),
        u(
            "lsof shows postgres running locally. i installed it with homebrew ages ago and forgot",
            e("environment", "homebrew"),
        ),
        u("brew services stop postgresql@14, got it"),
    ),
    group(
        ("Liam", "Aoife"),
        by("Liam", "grand so we're doing the Camino in May, need a packing list for 2 weeks"),
        by(
            "Aoife",
            "keep it under 7kg, I've a dodgy knee so I'm not carrying anything extra",
            e("fact", "Aoife", "knee", forbid=("user",)),
        ),
        by(
            "Liam",
            "and I'm a coeliac so flag anything about gluten free food on the route",
            e("fact", "Liam", "coeliac", forbid=("user",)),
        ),
        by("Aoife", "do we need proper boots or will trail runners do"),
    ),
    chat(
        u(
            "My wife and I just moved from Denver to Austin for her job and I need to switch my car registration and license. What's the order?",
            e("fact", "austin", forbid=("denver",)),
            e("relationship", "wife"),
        ),
        u("how long do i have"),
        u("do i need a texas inspection first"),
    ),
    chat(
        u(
            "from now on can you keep code examples in rust unless i say otherwise. i'm learning it this year and want the reps",
            e("instruction", "rust"),
            e("goal", "rust"),
        ),
        u("how do i read a file line by line"),
        u("what's the ? doing there"),
        u("and if i want to skip empty lines"),
    ),
    chat(
        u("what's the best credit card for travel points in canada"),
        u("i fly westjet mostly, out of Edmonton", e("fact", "edmonton")),
        u("annual fee under 150"),
    ),
    chat(
        u(
            "write a short bio for a conference speaker page: Dr. Anika Rao, cardiologist at Mayo Clinic, 15 years of experience, research on women's heart health, mother of two, avid rock climber."
        ),
        u("third person, 80 words"),
        u("good"),
    ),
    chat(
        u(
            "I speak Hindi, Tamil and English but my Tamil reading is really bad. any good apps to practice reading Tamil script",
            e("skill", "hindi"),
            e("skill", "tamil"),
            e("goal", "tamil"),
        ),
        u("something for adults, not kids' stuff"),
        u("ok I'll try that one"),
    ),
    chat(
        u("what's a good beginner guitar under 300"),
        u(
            "it's for me, i'm 52 and finally learning guitar. always wanted to play",
            e("identity", "52"),
            e("goal", "guitar"),
        ),
        u("acoustic. i want to play old neil young stuff", e("preference", "neil young")),
    ),
)
