# ruff: noqa: E501  (message texts are data: kept on one line each)
"""A new training batch of English conversations of the extraction evaluation set, ids `en-train5c-*`, split `dev`, used to train the extractor's learned stage. The chats mix speakers of many ages and backgrounds (US, UK, Irish, Indian, Nigerian, Australian and non-native English) and weight coding help with long pasted code and logs, writing and editing help, customer-support e-mails, job hunting, mental health, sport, religion and pets; most user messages hold no memory (task requests, pasted text, role-play, text to proofread, talk about other people, hypotheticals), the rest carry genuine self-disclosure in varied wording. They were written blind, by hand, before any measurement: without reading the extractor, its tests, the benchmark or any other conversation of the set; only `turns.py`'s shape was used."""

from __future__ import annotations

from typing import Final

from turns import Conversation, by, chat, e, group, u

CONVERSATIONS: Final[tuple[Conversation, ...]] = (
    chat(
        u(
            'getting this when i run my script, no idea why, it worked yesterday\n\nTraceback (most recent call last):\n  File "/home/arjun/projects/sales_report.py", line 41, in <module>\n    df = df.merge(regions, on=\'region_id\', how=\'left\')\n  File "/home/arjun/.local/lib/python3.10/site-packages/pandas/core/frame.py", line 10093, in merge\n    return merge(\n  File "/home/arjun/.local/lib/python3.10/site-packages/pandas/core/reshape/merge.py", line 110, in merge\n    op = _MergeOperation(\n  File "/home/arjun/.local/lib/python3.10/site-packages/pandas/core/reshape/merge.py", line 709, in __init__\n    self._maybe_coerce_merge_keys()\n  File "/home/arjun/.local/lib/python3.10/site-packages/pandas/core/reshape/merge.py", line 1291, in _maybe_coerce_merge_keys\n    raise ValueError(msg)\nValueError: You are trying to merge on object and int64 columns. If you wish to proceed you should use pd.concat'
        ),
        u(
            "ok casting it with astype(int) fixed it. thx. btw i'm a data analyst at flipkart in bangalore, 90% of my day is pandas and sql so you can skip the basics when you explain stuff to me",
            e("identity", "analyst"),
            e("fact", "Flipkart"),
            e("fact", "Bangalore"),
        ),
        u(
            "now can you make the function return a dict of region -> total instead of the dataframe, i need it that way for the json endpoint"
        ),
        u(
            "perfect. one more, how do i make it ignore rows where amount is NaN without dropping the whole row"
        ),
    ),
    chat(
        u(
            "Could you proofread this cover letter please, it's my little sister's, she's applying for a junior graphic designer role\n\nDear Hiring Manager,\n\nI am writing to express my interest in the Junior Graphic Designer position at Bloom Studio. I have recently graduated from Leeds Arts University with a first class degree in Graphic Communication, and I have spent the last summer interning at a small branding agency in Manchester where I worked on packaging for three independent coffee roasters. I am passionate about typography and I believe my attention to detail would make me a strong addition to your team.\n\nKind regards,\nMegan Hughes",
            e("relationship", "sister"),
        ),
        u(
            "thank you!! that reads so much better. is 'passionate about' too cliche? everyone says it"
        ),
        u(
            "yeah lets swap it for something about the coffee packaging then. she's still living with our parents in wakefield, should she say she's happy to relocate to london or leave that for the interview? btw i work in HR at a law firm in leeds so i know people skim these in about 10 seconds, keep it tight",
            e("fact", "law firm"),
            e("fact", "Leeds"),
        ),
        u("ok leaving it out. can you give me 3 subject lines for her email"),
    ),
    chat(
        u(
            "write a polite but firm email to my broadband provider. they charged me twice for november (£38.50 each time), account number 44718203, i already called once and was told it would be refunded in 5 working days and that was 3 weeks ago"
        ),
        u("a bit less formal maybe, it sounds like a solicitor wrote it lol"),
        u(
            "good. also add that i work from home so the outage on the 12th actually cost me a day of work, i'm a freelance translator so no internet = no income",
            e("identity", "translator"),
        ),
        u("send me the final version with the outage bit as a separate paragraph"),
    ),
    chat(
        u(
            "hi, i'm 15 and i want to get better at football, i play centre back for my school team but i'm kind of slow. what drills can i do at home with no gym",
            e("identity", "15"),
            e("skill", "centre back"),
        ),
        u("i have a small garden and a wall"),
        u(
            "how many times a week should i do the sprint ones, we have training tue and thu and matches on saturday"
        ),
        u("ok thanks. my mate says creatine is good, is that true?"),
    ),
    chat(
        u(
            "I need a short reflection for our parish newsletter on the parable of the prodigal son, about 250 words, warm tone, not preachy"
        ),
        u(
            "That's lovely. Could you mention forgiveness within families a bit more, and maybe end with a line about Advent since it goes out the first Sunday of December"
        ),
        u(
            "Perfect. For context I'm a retired schoolteacher and I've edited this newsletter for St Brigid's for about eleven years now, so I'll probably come back to you each month for these",
            e("identity", "retired", "teacher"),
            e("project", "newsletter"),
        ),
        u("Can you suggest a title? Something short."),
    ),
    chat(
        u(
            "my react component keeps re rendering infinitely, can you see why\n\nimport { useEffect, useState } from 'react';\n\nexport default function Orders({ userId }) {\n  const [orders, setOrders] = useState([]);\n  const [filters, setFilters] = useState({ status: 'all' });\n\n  useEffect(() => {\n    fetch(`/api/users/${userId}/orders?status=${filters.status}`)\n      .then(r => r.json())\n      .then(data => {\n        setOrders(data);\n        setFilters({ ...filters });\n      });\n  }, [userId, filters]);\n\n  return (\n    <ul>\n      {orders.map(o => <li key={o.id}>{o.total}</li>)}\n    </ul>\n  );\n}"
        ),
        u(
            "oh god yeah the setFilters, that was left from when i was debugging. removed it and it's fine"
        ),
        u(
            "while youre here, i want the list sorted by date descending and i want it to show 'no orders yet' when empty"
        ),
        u(
            "nice. ps i usually write vue at work so hooks still confuse me a bit, this is for a side project, a little order tracker for my sister's candle shop on etsy",
            e("skill", "Vue"),
            e("project", "candle"),
            e("relationship", "sister"),
        ),
    ),
    chat(
        u(
            "Please act as a hiring manager at a fintech startup and interview me for a backend engineer role. Ask one question at a time."
        ),
        u(
            "Sure. I've been working with Go for around four years, mostly building payment APIs at my current company, Paystack, here in Lagos. Before that I did two years of PHP.",
            e("skill", "Go"),
            e("fact", "Paystack"),
            e("fact", "Lagos"),
        ),
        u(
            "For the idempotency question, I would store a key per request in Redis with a TTL and return the cached response if the same key comes in again"
        ),
        u(
            "ok stop the roleplay. how did i do honestly? what should i improve before the real one on friday"
        ),
        u(
            "makes sense. is it normal to ask about salary in the first round in nigeria or should i wait"
        ),
    ),
    chat(
        u(
            "i don't really know why i'm typing this here. i've just been feeling really flat for weeks, like nothing is fun anymore, i used to love going to the gym and now i can't be bothered"
        ),
        u(
            "no i'm not in danger or anything, i just feel tired all the time. i work nights at a warehouse so maybe thats part of it",
            e("fact", "warehouse"),
            e("fact", "nights"),
        ),
        u("i haven't talked to a doctor. i guess i could. what would i even say"),
        u(
            "ok. that helps a bit actually. can you write what you just said as a few bullet points i can read out, i get nervous and forget stuff"
        ),
    ),
    chat(
        u(
            "what's the difference between a vet nurse and a vet tech, my daughter is thinking about it as a career",
            e("relationship", "daughter"),
        ),
        u("we're in Ohio if that matters", e("fact", "Ohio")),
        u("ok and roughly how long is the course"),
    ),
    chat(
        u(
            "my dog ate about half a bar of 70% dark chocolate maybe 20 mins ago, he's a 9kg cocker spaniel called Biscuit, do i need to go to the emergency vet",
            e("relationship", "Biscuit"),
        ),
        u("ok calling them now"),
        u("update: they made him vomit, he's ok, they said we caught it in time. thank you"),
        u("how do i stop him getting into my bag, he literally unzips it with his nose"),
    ),
    chat(
        u(
            "from now on please give me all measurements in metric, i'm in ireland and the cups and ounces stuff just confuses me",
            e("instruction", "metric"),
            e("fact", "Ireland"),
        ),
        u(
            "right so convert this for me: 2 cups flour, 1 stick butter, 3/4 cup sugar, 1 tsp baking soda, bake at 350F for 12 min"
        ),
        u("grand. is a stick of butter always the same size?"),
        u("and is baking soda the same as bread soda? that's what we call it here"),
    ),
    chat(
        u(
            'Translate into Spanish please: "Hi, my name is Laura and I\'m allergic to nuts. I live in the flat upstairs and my cat sometimes gets onto your balcony, sorry about that!"'
        ),
        u("thanks, and can you make it a bit more informal, it's for a note to the neighbour"),
        u(
            "haha the allergy line was just copied from another note, it's actually my flatmate who's allergic not me, but leave it out anyway"
        ),
    ),
    chat(
        u(
            "can u explain the offside rule like im 10. my son just started playing and keeps asking me and i genuinely dont know",
            e("relationship", "son"),
        ),
        u("ok what about if the ball comes off a defender"),
        u(
            "lol he'll be thrilled. he's obsessed with arsenal, i grew up a spurs fan so this is painful",
            e("preference", "Spurs"),
        ),
    ),
    chat(
        u(
            "Can you help me write a LinkedIn post announcing I've left my job? I was at Deloitte for 6 years as a senior consultant and I'm starting at a small climate tech company called Verdant Grid next month as head of operations.",
            e("fact", "Verdant Grid", forbid=("Deloitte",)),
            e("identity", "head of operations"),
        ),
        u("too many emojis, I'm 52 not 22 lol", e("identity", "52")),
        u("better. cut the last paragraph and thank my old team without naming anyone"),
        u("great, and a version half that length for twitter"),
    ),
    chat(
        u(
            'nginx is giving 502 bad gateway, here\'s the error log\n\n2026/11/20 09:14:02 [error] 1123#1123: *45 connect() failed (111: Connection refused) while connecting to upstream, client: 10.0.0.12, server: api.example.org, request: "GET /health HTTP/1.1", upstream: "http://127.0.0.1:8000/health", host: "api.example.org"\n2026/11/20 09:14:05 [error] 1123#1123: *47 connect() failed (111: Connection refused) while connecting to upstream, client: 10.0.0.12, server: api.example.org, request: "GET / HTTP/1.1", upstream: "http://127.0.0.1:8000/", host: "api.example.org"\n\nand my config\n\nserver {\n    listen 80;\n    server_name api.example.org;\n    location / {\n        proxy_pass http://127.0.0.1:8000;\n        proxy_set_header Host $host;\n        proxy_set_header X-Real-IP $remote_addr;\n    }\n}'
        ),
        u("systemctl status says gunicorn is active (running) tho"),
        u(
            "oh. it's bound to a unix socket /run/gunicorn.sock not port 8000. i copied the config from a tutorial"
        ),
        u(
            "that fixed it. can you give me the full server block with https and the socket, i want to use certbot"
        ),
    ),
    chat(
        u(
            "I'm 68 and recently widowed, my grandson set this up for me on my tablet. Could you tell me how to make the writing bigger on an iPad?",
            e("identity", "68"),
            e("relationship", "widow"),
            e("relationship", "grandson"),
            e("environment", "iPad"),
        ),
        u(
            "That worked, thank you dear. Is there a way to make it read things out loud to me? My eyes aren't what they were."
        ),
        u(
            "Wonderful. I'd also like to find a walking group near me, I'm in Galway, but I don't know where to start",
            e("fact", "Galway"),
            e("goal", "walking group"),
        ),
    ),
    chat(
        u(
            "rewrite this to sound more professional, it's for my boss:\n\nhey so i can't make the thursday meeting bc i have a dentist thing, can someone send me the notes after? also the q3 deck is like 80% done, i'll have it by fri for sure"
        ),
        u("less stiff than that, we're pretty casual at work, it's slack not email"),
        u("👍 perfect"),
    ),
    chat(
        u(
            "pls act as a strict personal trainer and make me a 4 week plan to run my first 5k. i'm a 34 year old guy, about 95kg, haven't run since school and i have a dodgy left knee",
            e("identity", "34"),
            e("fact", "knee"),
            e("goal", "5k"),
        ),
        u("can you put it in a table, week by day"),
        u(
            "i can only do mornings before 7 cos of the kids, does that change anything",
            e("relationship", "kids"),
        ),
        u("ok last q, what shoes should i look at, budget around 100 quid"),
    ),
    chat(
        u(
            "what bible verses are good for someone who's grieving? my friend just lost her mom and i want to put one in a card"
        ),
        u(
            "Psalm 34:18 is perfect. can you help me write a few lines to go with it, she's not very religious but i am so i don't want to push it"
        ),
        u(
            "thank you. she's been my best friend since we were 7, i hate that i can't be there, i moved to Toronto last year and she's still back in Manila",
            e("fact", "Toronto"),
        ),
    ),
    chat(
        u(
            "my SQL query is super slow, 40 seconds, postgres 15\n\nSELECT c.id, c.name, COUNT(o.id) AS orders, SUM(o.total) AS revenue\nFROM customers c\nLEFT JOIN orders o ON o.customer_id = c.id\nWHERE o.created_at >= NOW() - INTERVAL '90 days'\n  AND c.country = 'DE'\nGROUP BY c.id, c.name\nORDER BY revenue DESC\nLIMIT 50;\n\nEXPLAIN ANALYZE:\nLimit  (cost=985312.11..985312.24 rows=50 width=48) (actual time=40211.554..40211.571 rows=50 loops=1)\n  ->  Sort  (cost=985312.11..985476.02 rows=65564 width=48) (actual time=40211.552..40211.563 rows=50 loops=1)\n        Sort Key: (sum(o.total)) DESC\n        ->  HashAggregate  (cost=981210.33..982029.88 rows=65564 width=48) (actual time=40150.118..40190.220 rows=61244 loops=1)\n              ->  Hash Join  (cost=4211.20..970512.71 rows=1426349 width=24) (actual time=33.901..39012.477 rows=1399021 loops=1)\n                    Hash Cond: (o.customer_id = c.id)\n                    ->  Seq Scan on orders o  (cost=0.00..912833.10 rows=9112322 width=20) (actual time=0.021..35110.938 rows=9104477 loops=1)\n                          Filter: (created_at >= (now() - '90 days'::interval))\n                          Rows Removed by Filter: 31200455\n                    ->  Hash  (cost=3389.00..3389.00 rows=65776 width=20) (actual time=33.590..33.591 rows=65776 loops=1)\n                          ->  Seq Scan on customers c  (cost=0.00..3389.00 rows=65776 width=20)\nPlanning Time: 0.412 ms\nExecution Time: 40211.802 ms"
        ),
        u(
            "there's an index on orders(customer_id) but not on created_at. would a composite one be better?"
        ),
        u(
            "created it, down to 3.1s. good enough for now. also you're right the where clause kills the left join, i actually want customers with zero orders too"
        ),
        u(
            "btw for future questions assume postgres, we don't use anything else at my job",
            e("instruction", "Postgres"),
            e("environment", "Postgres"),
        ),
    ),
    group(
        ("Tunde", "Chioma"),
        by(
            "Tunde",
            "ok so we need a name for the fintech app for the hackathon, something short. i'm thinking of doing the backend in django since that's what i know best",
            e("skill", "Tunde", "Django", forbid=("user",)),
        ),
        by(
            "Chioma",
            "django is fine. i'll handle the flutter side, i've been doing mobile for like three years now",
            e("skill", "Chioma", "mobile", forbid=("user",)),
        ),
        by(
            "Tunde",
            "can the assistant suggest 10 names? something that works in pidgin too would be cool",
        ),
        by(
            "Chioma",
            "lol 'Owo' is good but probably taken. also i can only work on it evenings, i'm still at MTN during the day",
            e("fact", "Chioma", "MTN", forbid=("user",)),
        ),
        by(
            "Tunde",
            "same, i'm in Abuja till wednesday for work anyway. let's pick the name tonight",
        ),
    ),
    chat(
        u(
            "I keep getting 'permission denied (publickey)' when I push to github. I'm on Windows 11 using git bash",
            e("environment", "Windows"),
        ),
        u(
            "$ ssh -T git@github.com\ngit@github.com: Permission denied (publickey).\n\n$ ls ~/.ssh\nknown_hosts"
        ),
        u("oh so there's no key at all. ok generating one now with ed25519"),
        u(
            "added it to github and ssh-agent, works now. thanks a lot, I'm just getting started with programming, doing a bootcamp at the moment so all this is new to me",
            e("goal", "bootcamp"),
        ),
    ),
    chat(
        u(
            "hey can you give me some ideas for my cat who's bored when i'm at work? she's an indoor cat, 3 years old, called Mochi",
            e("relationship", "Mochi"),
        ),
        u("she does like wand toys but ignores balls"),
        u("what about a second cat, would that help or make it worse"),
        u("hmm my landlord only allows one pet so that's out anyway"),
    ),
    chat(
        u(
            "proofread pls, it's a text for my poetry class, don't change the meaning:\n\nI was born in a town where the rivers forget their names,\nwhere my mother sold tomatoes and my father sold silence.\nI am seventeen winters old and I have never seen snow,\nbut I have seen the sea swallow a boat whole."
        ),
        u("no the 'seventeen winters' thing is intentional, it's a persona, the speaker isn't me"),
        u(
            "thanks. i'm doing creative writing as an elective this year, honestly it's my favourite class",
            e("preference", "creative writing"),
        ),
    ),
    chat(
        u(
            "How do I write a resignation letter for a nursing job in the NHS, I've been a band 5 staff nurse on a cardiology ward for 4 years and I've got a place on a midwifery course starting in January",
            e("identity", "nurse"),
            e("goal", "midwi"),
        ),
        u(
            "Notice period is 4 weeks I think. Can you make it short and kind, my manager has been really good to me"
        ),
        u(
            "That's perfect thank you. I'm terrified honestly, I'm 41 and I'll be the oldest in the cohort",
            e("identity", "41"),
        ),
        u("Could you give me a few tips for going back to study after so long"),
    ),
    chat(
        u(
            "whats a good weekly schedule for learning japanese if i have about 45 mins a day. i've done duolingo for 200 days but i feel like i can't actually speak",
            e("goal", "Japanese"),
        ),
        u("i already know hiragana and katakana, kanji is where i'm stuck"),
        u("wanikani or anki?"),
        u(
            "ok going with wanikani. also i should say i'm deaf so speaking practice is different for me, i mostly want reading and writing",
            e("fact", "deaf"),
        ),
    ),
    chat(
        u(
            "Can you fix this bash script, it's supposed to back up my photos folder to the external drive but it says 'no such file or directory' every time\n\n#!/bin/bash\nSRC=~/Pictures/Photos Library\nDEST=/Volumes/Backup Drive/photos\nDATE=$(date +%Y-%m-%d)\n\nmkdir -p $DEST/$DATE\nrsync -av --progress $SRC $DEST/$DATE\necho \"done\""
        ),
        u("ahh the spaces. yes I'm on a mac, macOS Sonoma", e("environment", "mac")),
        u("can you make it also delete backups older than 30 days"),
        u("and how do i run it every sunday night automatically"),
    ),
    chat(
        u(
            "hi i need a cold email to a recruiter at shopify, i saw a senior product designer role. i'm currently at a bank in toronto doing ux for their mobile app, about 7 years of ux total",
            e("fact", "bank"),
            e("skill", "UX", "7"),
        ),
        u("shorter, recruiters don't read"),
        u("ok. and a follow up if they don't reply in a week"),
    ),
    chat(
        u(
            "I've had a really hard week. my dad was diagnosed with early dementia and I'm the only one of my siblings who lives close to him so it's all falling on me",
            e("relationship", "dad"),
        ),
        u("I'm not looking for advice really I just needed to say it somewhere"),
        u(
            "thank you. actually yes, is there anything practical about sorting out power of attorney? we're in England",
            e("fact", "England"),
        ),
        u("ok I'll look at that tomorrow. I think I'll go for a walk now before it gets dark"),
    ),
    chat(
        u("explain what a closure is in javascript"),
        u("ok but why would i ever need one"),
        u("so like a counter that remembers its value, got it"),
    ),
    chat(
        u(
            'rust newbie here, why does this not compile\n\nfn longest(a: &str, b: &str) -> &str {\n    if a.len() > b.len() { a } else { b }\n}\n\nfn main() {\n    let s1 = String::from("hello");\n    let res;\n    {\n        let s2 = String::from("hi");\n        res = longest(&s1, &s2);\n    }\n    println!("{}", res);\n}\n\nerror[E0106]: missing lifetime specifier\n --> src/main.rs:1:33\n  |\n1 | fn longest(a: &str, b: &str) -> &str {\n  |               ----     ----     ^ expected named lifetime parameter\n  |\n  = help: this function\'s return type contains a borrowed value, but the signature does not say whether it is borrowed from `a` or `b`'
        ),
        u("ok added 'a everywhere, now it says s2 does not live long enough"),
        u(
            "right that makes sense now. i'm coming from 10 years of C++ so the borrow checker feels like someone slapping my hand every 5 minutes lol",
            e("skill", "C++", "10"),
        ),
        u(
            "is there a good book for people who already know c++? i really want to get to the point where i can write rust at work, we're starting a new service in it next year",
            e("goal", "Rust"),
        ),
    ),
    chat(
        u(
            "i switched from vscode to neovim last month and i can't figure out how to get the python lsp working. i'm using lazy.nvim",
            e("environment", "Neovim", forbid=("VS Code", "vscode")),
        ),
        u(
            'here\'s my config\n\nreturn {\n  {\n    "neovim/nvim-lspconfig",\n    config = function()\n      local lspconfig = require("lspconfig")\n      lspconfig.pyright.setup({})\n    end,\n  },\n  { "hrsh7th/nvim-cmp" },\n}\n\nand :LspInfo says 0 clients attached'
        ),
        u("pyright isn't installed lol. installing with mason now"),
        u("works! can you also add ruff as a formatter on save"),
    ),
    chat(
        u(
            "Write a short email to Ryanair customer service asking for a refund. My flight FR8342 from Dublin to Lisbon on 3 November was cancelled and they rebooked me on a flight two days later, which I couldn't take, so I booked with Aer Lingus instead. Booking ref K7TQ2P."
        ),
        u("Add that I'm claiming under EU261 compensation as well, not just the refund"),
        u("perfect. and if they don't reply in 2 weeks what do i do"),
    ),
    chat(
        u(
            "do you think it's weird to pray with your kids before school? my husband thinks it's too much but i grew up doing it every morning with my mum in Enugu",
            e("relationship", "husband"),
            e("identity", "Enugu"),
            e("relationship", "kids"),
        ),
        u(
            "yeah i guess it's more about how we do it than whether we do it. our eldest is 12 and she's started rolling her eyes lol"
        ),
        u(
            "can you suggest a short morning prayer that's not too long or old fashioned, something a 6 year old could say too"
        ),
    ),
    chat(
        u(
            "if i moved to germany as a software dev what salary would i need to live well in munich"
        ),
        u("and berlin?"),
        u(
            "ok it's just a thought for now, my girlfriend is german and we've talked about it but nothing decided",
            e("relationship", "girlfriend"),
        ),
    ),
    chat(
        u(
            "can you write me a bio for a local cycling club website, it's for me as the new ride leader. i'm Dave, 61, retired electrician, been cycling about 30 years, love long hilly sportives in the Peak District, hate cafe stops that last more than 20 minutes lol",
            e("identity", "61"),
            e("identity", "electrician"),
            e("skill", "cycling", "30"),
            e("preference", "hill"),
        ),
        u("lol make it a bit funnier"),
        u("ha perfect. can you also write a 3 line one for the facebook group"),
    ),
    chat(
        u(
            'Can you check my Java? It throws a NullPointerException and I don\'t see where\n\nException in thread "main" java.lang.NullPointerException: Cannot invoke "String.length()" because "name" is null\n\tat com.school.Library.findBook(Library.java:27)\n\tat com.school.Main.main(Main.java:12)\n\npublic Book findBook(String name) {\n    for (Book b : books) {\n        if (b.getTitle().length() == name.length() && b.getTitle().equals(name)) {\n            return b;\n        }\n    }\n    return null;\n}\n\nand in Main: Book b = lib.findBook(args.length > 0 ? args[1] : null);'
        ),
        u("oh so args[1] is wrong AND i pass null. ok i fixed both"),
        u(
            "my teacher says we must use Optional for this, can you change findBook to return Optional<Book>"
        ),
        u(
            "thank you. english is not my first language sorry if my questions are strange, i'm from Poland and studying computer science here in the Netherlands",
            e("identity", "Pol"),
            e("fact", "computer science"),
            e("fact", "Netherlands"),
        ),
    ),
    chat(
        u(
            "i have an interview tomorrow for a barista job at costa and i've never had a job before. i'm 17. what will they ask",
            e("identity", "17"),
        ),
        u(
            "what do i say if they ask why i want to work there, honestly it's just for money for uni"
        ),
        u("ok that's good. and what should i wear"),
        u("thank you so much, wish me luck!!"),
    ),
    chat(
        u(
            "hey from now on can you keep your answers short, like 3-4 sentences max unless i ask for more. i'm reading on my phone on the bus mostly",
            e("instruction", "short"),
        ),
        u("what's the difference between an ETF and an index fund"),
        u("which is better for a roth ira"),
        u(
            "ok. i already have a 401k through work, i'm a mechanical engineer at a boeing supplier in Wichita, so is it worth doing both",
            e("identity", "mechanical engineer"),
            e("fact", "Wichita"),
        ),
    ),
    chat(
        u(
            "Act as my cranky old Scottish grandad and tell me why I should eat my vegetables. Stay in character."
        ),
        u("haha. now tell me about the war, grandad"),
        u("ok that's enough lol. my real grandad was from Aberdeen actually, he'd have loved this"),
    ),
    group(
        ("Siobhan", "Ciaran", "Aoife"),
        by(
            "Siobhan",
            "right lads we need to sort the trip to the all-ireland final. can the bot find us a cheap place in dublin for the night of the 19th",
        ),
        by(
            "Ciaran",
            "nothing fancy. i'm not eating meat anymore btw so no steakhouse after like last year",
            e("fact", "Ciaran", "meat", forbid=("user",)),
        ),
        by(
            "Aoife",
            "i'll drive from Sligo and pick ye up in Mullingar, i've the 7 seater now",
            e("fact", "Aoife", "Sligo", forbid=("user",)),
        ),
        by("Siobhan", "legend. ask it for a veggie friendly pub near croke park"),
        by("Ciaran", "and somewhere that shows the hurling too if we're early"),
    ),
    chat(
        u(
            "I'm trying to write a regex that matches UK postcodes but it fails on things like 'SW1A 1AA'\n\n^[A-Z]{1,2}[0-9]{1,2} ?[0-9][A-Z]{2}$"
        ),
        u("I want it to also accept lowercase and no space"),
        u("nice. and in python, should i use re.fullmatch or re.match with the anchors"),
    ),
    chat(
        u(
            "my anxiety has been really bad since i started uni, i'm in first year studying law at Trinity and i feel like everyone else is smarter than me",
            e("fact", "law"),
            e("fact", "Trinity"),
        ),
        u(
            "i have been to the student counselling once. they were nice but there's a 5 week wait for the next one"
        ),
        u(
            "breathing stuff doesn't really work for me tbh, i get more anxious focusing on my breath. what else is there",
            e("preference", "breathing"),
        ),
        u(
            "ok i'll try the 5-4-3-2-1 thing in the lecture hall tomorrow. thanks for not being weird about it"
        ),
    ),
    chat(
        u(
            "can you help me write an Instagram caption for my rabbit's birthday, his name is Clover, he turned 5 today and he's a grumpy lionhead",
            e("relationship", "Clover"),
        ),
        u("more puns pls"),
        u("haha the 'hoppy birthday you old grump' one. done"),
    ),
    chat(
        u(
            "write a product description for handmade soy candles, scent: fig and cedar, 200g, burn time 40h, £18. tone: cosy, a bit witty, under 80 words"
        ),
        u("give me 3 options"),
        u("the second one but swap 'cosy' for something less overused"),
    ),
    chat(
        u(
            "I'm a pastor at a small Baptist church in Georgia and I'd like help structuring a 6 week Bible study on the book of James for our young adults group",
            e("identity", "pastor"),
            e("fact", "Georgia"),
        ),
        u(
            "Week 3 should cover faith and works, chapter 2. Can you give discussion questions for that week?"
        ),
        u(
            "These are good. Keep them a little less academic, most of the group are 19-25 and some are pretty new to faith"
        ),
        u(
            "Please always use the ESV when quoting scripture for me, that's what our church reads",
            e("instruction", "ESV"),
        ),
    ),
    chat(
        u(
            'Docker compose won\'t start my app, logs:\n\nweb-1  | Traceback (most recent call last):\nweb-1  |   File "/app/manage.py", line 22, in <module>\nweb-1  |     main()\nweb-1  |   File "/usr/local/lib/python3.12/site-packages/django/db/backends/postgresql/base.py", line 275, in get_new_connection\nweb-1  |     connection = self.Database.connect(**conn_params)\nweb-1  | psycopg.OperationalError: connection failed: connection to server at "127.0.0.1", port 5432 failed: Connection refused\nweb-1  |     Is the server running on that host and accepting TCP/IP connections?\ndb-1   | 2026-11-27 18:02:11.432 UTC [1] LOG:  database system is ready to accept connections\nweb-1 exited with code 1\n\ncompose file:\n\nservices:\n  db:\n    image: postgres:16\n    environment:\n      POSTGRES_PASSWORD: dev\n  web:\n    build: .\n    command: python manage.py runserver 0.0.0.0:8000\n    environment:\n      DATABASE_HOST: 127.0.0.1\n    ports:\n      - "8000:8000"\n    depends_on:\n      - db'
        ),
        u(
            "so DATABASE_HOST should be db. changed it. now it starts before postgres is ready sometimes"
        ),
        u("add the healthcheck version then"),
        u(
            "works. honestly docker still feels like magic to me, i've been a frontend dev for years and this is my first time doing backend stuff, i'm building a little booking app for my wife's yoga studio",
            e("identity", "frontend"),
            e("project", "booking"),
            e("relationship", "wife"),
        ),
    ),
    chat(
        u("is it true that dogs can't see colour"),
        u("so what colour toy is best for them then"),
        u("my neighbour's labrador only ever plays with a red ball, so that's funny"),
    ),
    chat(
        u(
            "help me prep for a data science interview at Amazon next week, give me 5 likely SQL questions"
        ),
        u(
            "for question 3 my answer would be:\n\nSELECT user_id, order_date,\n       SUM(amount) OVER (PARTITION BY user_id ORDER BY order_date ROWS BETWEEN 6 PRECEDING AND CURRENT ROW) AS rolling_7d\nFROM orders;\n\nis that right?"
        ),
        u("oh right, rows vs range with gaps in the dates. fixed version?"),
        u(
            "thanks. i'm quite nervous, i did my masters in statistics at IIT Madras and then 2 years at a startup, never done a big tech interview",
            e("fact", "statistics"),
            e("fact", "IIT Madras"),
        ),
    ),
    chat(
        u(
            "what's the best way to get my 14 year old to talk to me, he just grunts now lol",
            e("relationship", "14"),
        ),
        u("he does like basketball, he's obsessed with the celtics"),
        u("car rides might work actually, i drive him to practice twice a week"),
    ),
    group(
        ("Priya", "Sam"),
        by(
            "Priya",
            "ok can you help us plan meals for the week, we're trying to spend under 60 pounds. i'm vegetarian but Sam eats everything",
            e("fact", "Priya", "vegetarian", forbid=("user",)),
        ),
        by(
            "Sam",
            "i eat everything except mushrooms, can't stand them",
            e("preference", "Sam", "mushroom", forbid=("user",)),
        ),
        by("Priya", "and nothing that takes more than 30 mins on weekdays, we both get home late"),
        by("Sam", "can you make a shopping list grouped by aisle too"),
        by(
            "Priya",
            "perfect. swap wednesday for something with chickpeas, i've got two tins to use up",
        ),
    ),
    chat(
        u(
            "Hi, my name is Kwame and I use he/him. I'm putting together a talk for a Ghanaian student society event about imposter syndrome in tech, can you help me outline it?",
            e("identity", "Kwame"),
            e("identity", "he/him"),
        ),
        u("About 15 minutes. The audience is mostly first and second year undergrads."),
        u(
            "I'd like to open with a personal story. I moved from Kumasi to Birmingham at 19 for uni and failed my first programming module, now I'm a software engineer at Jaguar Land Rover. How do I tell that without sounding like a humblebrag",
            e("fact", "Birmingham"),
            e("identity", "Kumasi"),
            e("fact", "Jaguar"),
            e("identity", "software engineer"),
        ),
        u("good. draft the first 2 minutes as a script"),
        u("make it sound more like how I'd actually talk, less polished"),
    ),
    chat(
        u(
            "I'm building a habit tracker in Flask as my final year project and I want the streak counter to reset if someone misses a day. Current code:\n\ndef update_streak(habit, today):\n    if habit.last_done is None:\n        habit.streak = 1\n    elif habit.last_done == today - timedelta(days=1):\n        habit.streak += 1\n    else:\n        habit.streak = 1\n    habit.last_done = today\n    db.session.commit()\n\nproblem is if they tick it twice on the same day the streak goes back to 1",
            e("project", "habit tracker"),
        ),
        u("yeah early return if last_done == today, that's cleaner"),
        u("can you write pytest tests for it, i want one per case"),
        u(
            "one of them fails:\n\nFAILED tests/test_streak.py::test_missed_day_resets - AssertionError: assert 4 == 1\n +  where 4 = <Habit id=None>.streak"
        ),
        u("ah the fixture was reusing the same habit object. fixed, all green"),
    ),
    chat(
        u(
            "I've just moved from London to Bristol for my partner's job and I don't know anyone here, any tips for meeting people in your 30s",
            e("fact", "Bristol", forbid=("London",)),
            e("relationship", "partner"),
        ),
        u("I do like climbing, used to boulder twice a week in London", e("preference", "climb")),
        u("Is there a way to find a climbing group that's more social and less hardcore"),
    ),
    chat(
        u(
            "can you rewrite this paragraph of my son's college essay so it flows better? don't add anything he didn't say\n\nWhen I was twelve my family moved from Chennai to New Jersey. I didn't speak much English and I ate lunch alone in the library for a whole year. The librarian, Mrs Keller, started leaving books on my table. First comics, then novels. By eighth grade I had read every book in the fantasy section. I want to study library science because of her.",
            e("relationship", "son"),
        ),
        u("he's applying to rutgers and a few others, deadline is jan 1"),
        u("good, that's the version. keep the Mrs Keller line exactly as it is"),
    ),
    group(
        ("Jordan", "Mia", "Leo"),
        by(
            "Jordan",
            "ok settle this for us: who's the better QB all time, brady or mahomes. i've been a chiefs fan since i was a kid so i know my answer",
            e("preference", "Jordan", "Chiefs", forbid=("user",)),
        ),
        by("Mia", "you're so biased lol. brady obviously"),
        by(
            "Leo",
            "i honestly don't care about football, i'm just here for the wings. can the bot give us a good hot wing recipe for sunday",
            e("preference", "Leo", "football", forbid=("user",)),
        ),
        by("Mia", "make it air fryer, Jordan's oven is broken again"),
        by("Jordan", "hey it works, you just have to hold the door shut"),
    ),
    chat(
        u("quick one, convert 5ft 9 to cm"),
        u("and 11 stone 4 to kg"),
        u(
            "cheers. it's for a form for my visa, i'm moving to Melbourne in march for a nursing job",
            e("goal", "Melbourne"),
        ),
    ),
    chat(
        u(
            "I stopped eating gluten about three months ago after my coeliac diagnosis and I'm struggling with breakfast ideas that aren't just eggs",
            e("fact", "coeliac"),
        ),
        u("no oats? I thought oats were fine"),
        u(
            "ok I'll look for the certified ones. Also I really don't like anything too sweet in the morning",
            e("preference", "sweet"),
        ),
        u("give me a 7 day plan then, nothing fancy"),
    ),
    chat(
        u(
            "hello, sorry for my english. i am brazilian dentist, i work in a clinic in Lisbon since 2021. i need to write email to a supplier in UK because they send wrong order, 20 boxes of gloves size S but we ask size M. can you write it for me?",
            e("identity", "dentist"),
            e("identity", "Brazil"),
            e("fact", "Lisbon"),
        ),
        u("very good thank you! please make more short, they are busy people"),
    ),
    chat(
        u(
            "my github actions workflow fails on the test step and i can't reproduce it locally\n\nRun pytest -q\n============================= test session starts ==============================\nplatform linux -- Python 3.11.6, pytest-8.3.2, pluggy-1.5.0\nrootdir: /home/runner/invoicer\ncollected 48 items\n\ntests/test_pdf.py ........F...                                           [ 25%]\ntests/test_totals.py ....................................               [100%]\n\n=================================== FAILURES ===================================\n____________________________ test_render_with_logo _____________________________\n\n    def test_render_with_logo(tmp_path):\n        out = tmp_path / \"inv.pdf\"\n>       render_invoice(SAMPLE, out, logo=\"assets/logo.png\")\nE       FileNotFoundError: [Errno 2] No such file or directory: 'assets/logo.png'\n\ntests/test_pdf.py:58: FileNotFoundError\n=========================== short test summary info ============================\nFAILED tests/test_pdf.py::test_render_with_logo - FileNotFoundError: [Errno 2] No such file or directory: 'assets/logo.png'\n1 failed, 47 passed in 3.41s\nError: Process completed with exit code 1."
        ),
        u("the file is definitely in the repo, i can see it on github"),
        u(
            "ohhh it's Assets/logo.png with a capital A. works on my machine because macos is case insensitive. ok"
        ),
        u(
            "renamed it. also can you always include type hints in python code you give me, i run mypy strict on everything",
            e("instruction", "type hint"),
            e("environment", "mypy"),
        ),
        u(
            "here's render_invoice, can you add type hints and make logo optional\n\ndef render_invoice(data, out, logo=None):\n    c = canvas.Canvas(str(out), pagesize=A4)\n    if logo:\n        c.drawImage(logo, 40, 760, width=120, height=40)\n    y = 700\n    for line in data['lines']:\n        c.drawString(40, y, f\"{line['desc']}  {line['qty']} x {line['price']:.2f}\")\n        y -= 18\n    c.drawString(40, y - 20, f\"Total: {sum(l['qty'] * l['price'] for l in data['lines']):.2f}\")\n    c.save()"
        ),
        u("great. should data be a TypedDict or a dataclass here"),
        u(
            "dataclass it is. this is for my own little invoicing tool, i do freelance bookkeeping and got sick of paying for quickbooks",
            e("project", "invoic"),
            e("identity", "bookkeep"),
        ),
    ),
)
