# ruff: noqa: E501  (message texts are data: kept on one line each)
"""A new training batch of English conversations of the extraction evaluation set, ids
`en-train5a-*`, split `dev`, used to train the extractor's learned stage: one-person chats and
four group conversations, weighted to speakers from the US South and Midwest, Scotland, Kenya,
Singapore and non-native speakers (Arabic, Chinese, Russian), on small business, farming and
trades, gaming, cooking, elder care, visas and side projects. It was written blind, without
reading the extractor, its tests, the benchmark or any other conversation of the set; only
`turns.py`'s shape was used."""

from __future__ import annotations

from typing import Final

from turns import Conversation, by, chat, e, group, u

CONVERSATIONS: Final[tuple[Conversation, ...]] = (
    chat(
        u(
            "ok so me and my wife run a bbq food truck out of san antonio, been doing it about 3 yrs now. brisket plates are $16 right now and costs went way up, can you help me figure out what to charge if brisket is running $5.20/lb raw and we lose about 45% in the cook",
            e("relationship", "wife"),
            e("fact", "san antonio"),
            e("fact", "food truck"),
        ),
        u("yeah thats about what i figured. we do 2 sides and texas toast with the plate"),
        u("can u make it a lil table i can print, plate, sandwich, by the pound"),
        u("perfect thanks partner"),
    ),
    chat(
        u(
            "need an invoice template for a boiler service, customer is a landlord with 4 flats in the same close. vat registered. keep it plain"
        ),
        u(
            "aye im a self employed gas engineer, gas safe registered, working mostly round paisley and renfrew so put that in the footer",
            e("identity", "gas engineer"),
            e("fact", "paisley"),
        ),
        u("take out the logo bit i dinnae have one"),
        u("and change the payment terms to 14 days not 30"),
        u(
            "from now on when ye give me prices or totals just use pounds, dont bother showing dollars",
            e("instruction", "pound"),
        ),
    ),
    chat(
        u(
            "Good morning. My cows are giving less milk since the rains started, from about 18 litres to 12 per cow. What could cause this"
        ),
        u(
            "We have 9 Friesians and 2 Ayrshire crosses on about 4 acres near Nyahururu, zero grazing mostly, napier grass and dairy meal",
            e("fact", "nyahururu"),
            e("fact", "cow"),
        ),
        u(
            "The udder of one is hot and she kicks when milking. Is this mastitis? The vet is far and expensive"
        ),
        u(
            "ok i will call the vet. how do i do the CMT test myself, i have the paddle from the cooperative"
        ),
    ),
    chat(
        u("whats a good crosshair for valorant, i keep overflicking on sheriff"),
        u(
            "i play on 1600 dpi 0.25 sens, 240hz monitor, currently hardstuck plat 2 lol",
            e("environment", "240"),
        ),
        u("ok tried it, the dot feels too small. make it a lil thicker"),
        u("also is it true the vandal first bullet is accurate while moving or is that cap"),
        u(
            "lol ok. btw i'm in singapore so i play on the SG servers, my ping is like 4ms so no excuse",
            e("fact", "singapore"),
        ),
    ),
    chat(
        u(
            "Please correct my English in this letter, don't change the meaning:\n\nDear Sir/Madam,\nI am writing to you to apply for the Opportunity Card. I am 29 years old and I have worked as an accountant in Cairo for six years. I speak Arabic native, English good and German A2. I am very motivated to live in Germany and I am sure I will find work fastly.\nBest regards"
        ),
        u("Thank you. Is 'fastly' wrong? In my school they teach us this word"),
        u(
            "ok. Actually the letter is for my cousin Karim, not me, I am only helping him because my English is better. I work in a bank in Alexandria",
            e("fact", "bank"),
            e("fact", "alexandria"),
        ),
        u("Can you make the last sentence more strong"),
    ),
    chat(
        u(
            "my mom is 81 and has mid stage alzheimers, she lives with us since last year. she gets very agitated around 4-5pm every day. what can i do",
            e("relationship", "alzheimer"),
        ),
        u(
            "yes the sundowning. she only speaks cantonese now, she lost her english, so the tv is not helping"
        ),
        u("what kind of activities. she used to do dim sum at home every sunday for whole family"),
        u(
            "good idea folding dumplings. my husband thinks it is dangerous with the knife but i will do the filling myself",
            e("relationship", "husband"),
        ),
        u(
            "please keep the answers simple english, my english is not so good, i am chinese from guangzhou",
            e("identity", "chinese"),
            e("instruction", "simple"),
        ),
    ),
    chat(
        u(
            "panic: runtime error: invalid memory address or nil pointer dereference\n[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x6b2f1a]\n\ngoroutine 1 [running]:\nmain.(*Bot).handleUpdate(0x0, {0x1, 0xc0001a4000, 0x0})\n\t/home/dmitry/tgbot/main.go:88 +0x3a\nmain.main()\n\t/home/dmitry/tgbot/main.go:41 +0x1c5\nexit status 2"
        ),
        u(
            'here main.go\n\nfunc main() {\n\tvar b *Bot\n\ttoken := os.Getenv("TG_TOKEN")\n\tapi, err := tgbotapi.NewBotAPI(token)\n\tif err != nil {\n\t\tlog.Fatal(err)\n\t}\n\tu := tgbotapi.NewUpdate(0)\n\tupdates := api.GetUpdatesChan(u)\n\tfor upd := range updates {\n\t\tb.handleUpdate(upd)\n\t}\n}'
        ),
        u(
            "ah yes, stupid. I write this bot on evenings for our apartment building chat, it sends reminders about water shutoffs and garbage days",
            e("project", "bot"),
        ),
        u(
            "works now. Please answer without emojis and without 'great question', just code and short explanation",
            e("instruction", "emoji"),
        ),
    ),
    chat(
        u("how do i figure shrink on corn if i'm drying from 22% down to 15%"),
        u("ok and if i got 40,000 bushel wet in the bin whats that come out to"),
        u(
            "we farm about 1,100 acres corn and beans outside of Decatur, been in the family since my great granddad",
            e("fact", "decatur"),
            e("fact", "acre"),
        ),
        u(
            "elevator's docking us 1.3% per point over 15 so is it worth running the dryer or just haul it wet"
        ),
        u("propane is 1.65 a gallon right now"),
    ),
    group(
        ("Wanjiru", "Otieno"),
        by(
            "Wanjiru",
            "ok so we need to sort out a schedule for dad after the hospital discharges him on friday. the doctor said no climbing stairs for 6 weeks",
        ),
        by(
            "Otieno",
            "I can take weekends, I'm off sat and sun since I moved to the night shift at the depot in Athi River",
            e("fact", "Otieno", "athi river", forbid=("user",)),
        ),
        by(
            "Wanjiru",
            "weekdays are hard for me, I teach at the primary school until 4 and then the kids",
            e("identity", "Wanjiru", "teach", forbid=("user",)),
            e("relationship", "Wanjiru", "kid", forbid=("user",)),
        ),
        by(
            "Otieno",
            "can we ask the AI to make a table with who does what and the medicine times. he takes metformin morning and evening and the blood pressure one at night",
        ),
        by(
            "Wanjiru",
            "yes and add that mum's sister can come tuesdays. make it simple so dad can read it on the fridge",
        ),
    ),
    chat(
        u(
            "Act as an angry customer whose roof is still leaking after I fixed it last month. I want to practice handling complaints on the phone. Start the call."
        ),
        u(
            "Good afternoon, this is Tyler from Hargrove Roofing, I'm sorry to hear that ma'am, can you tell me where the water is coming in?"
        ),
        u(
            "I understand. I can have someone out there tomorrow morning between 8 and 10, at no charge to you"
        ),
        u("ok stop the roleplay. how did i do? be honest"),
        u(
            "makes sense. i just took over the customer side of my dad's roofing company in tulsa, i'm way better on a roof than on the phone lol",
            e("fact", "roofing"),
            e("fact", "tulsa"),
        ),
    ),
    chat(
        u(
            "Translate to Arabic (Gulf dialect if possible, not too formal):\n\nHi Faisal, thanks for your message. I'm away until the 14th and I'll have limited access to email. My colleague Sarah will handle the shipment from Jebel Ali in the meantime. I'm really sorry about the delay, it won't happen again."
        ),
        u("shukran. can you also give me the MSA version, my manager prefers that"),
        u("yalla perfect"),
    ),
    chat(
        u(
            "if i moved to canada on a work permit and my wife stayed in texas for a year, would i still have to file us taxes? just curious, nothing planned"
        ),
        u("what about the foreign earned income exclusion, does that apply to canada"),
        u("huh interesting. so basically the us taxes you wherever you go"),
    ),
    chat(
        u(
            "my mamaw's cornbread recipe makes a 10 inch skillet, i need to do it for 40 people at church sunday. 2 cups cornmeal, 1 cup buttermilk, 1 egg, 4 tbsp bacon grease, 1 tsp salt, 1 tsp baking powder, half tsp soda"
        ),
        u("i'm gonna use half sheet pans instead of skillets, how many"),
        u(
            "oh and swap the bacon grease for butter please, i quit eating pork and most meat back in march, mostly vegetarian now",
            e("fact", "vegetarian"),
        ),
        u("do i need to change the oven temp for a sheet pan vs cast iron"),
        u("thank you sugar, you're a lifesaver"),
    ),
    chat(
        u(
            "whats the max disconnection time for a 32A radial circuit on a TN-C-S system, im revising for my AM2 and my heads mince",
            e("goal", "am2"),
        ),
        u("right and thats 0.4s for final circuits up to 63a aye"),
        u(
            "im a 3rd year apprentice with a wee firm in Motherwell, doing my level 3 at Glasgow Clyde college one day a week",
            e("identity", "apprentice"),
            e("fact", "clyde"),
        ),
        u("quiz me on zs values, give me 5 questions, dinnae give the answers till i reply"),
        u("1. 1.37 2. dunno 3. 0.8 4. 2.73 5. 1.09"),
        u("ach. aye fair"),
    ),
    chat(
        u(
            "write a product description for a soy candle, scent is 'porch swing' , notes of honeysuckle, cut grass, sweet tea. 8oz amber jar, 45 hr burn. etsy style, warm, not cheesy"
        ),
        u("too long, i need it shorter, like 3 sentences"),
        u("I like the second version better but take out 'nostalgic' everybody uses that word"),
        u("now one for 'ozark hayride' , cedar, apple, woodsmoke"),
        u(
            "love it. i pour all these by hand in my garage in springfield mo, started it as a side hustle when i was laid off from the hospital billing job in 2022",
            e("fact", "springfield"),
            e("project", "candle"),
        ),
    ),
    chat(
        u(
            "My wife is on H-4 and I am on H-1B with Amazon in Seattle. Our I-140 is approved, priority date 2019, EB-2 China. Can she get EAD?",
            e("fact", "amazon"),
            e("fact", "seattle"),
            e("relationship", "wife"),
        ),
        u("how long does EAD processing take now"),
        u("and if I change job to a startup, do we lose the I-140"),
        u(
            "ok. I am thinking to move to a smaller company next year, more interesting work, but the visa is big risk",
            e("goal", "job"),
        ),
        u(
            "Please always give me the source link for immigration rules, I need to check myself",
            e("instruction", "source"),
        ),
    ),
    chat(
        u(
            "need a weekly meal plan for my mother she's 77 with type 2 diabetes, she lives with me in huntsville. she hates fish of any kind",
            e("relationship", "diabet"),
            e("fact", "huntsville"),
        ),
        u(
            "also it has to be gluten free because i have celiac and i'm not cooking two dinners every night",
            e("fact", "celiac"),
        ),
        u("she can't chew hard stuff well either, dentures"),
        u("can you turn that into a grocery list grouped by aisle"),
        u("thanks hon"),
    ),
    chat(
        u(
            "Here is the job post, can you rewrite it so it doesn't sound so stiff:\n\nGREEN ACRES LAWN & LANDSCAPE is hiring seasonal crew members. Must have valid drivers license. Must be able to lift 50 lbs. Experience with zero turn mowers preferred. $17-19/hr DOE. We are a family owned company serving Lexington since 1998. We value hard work and showing up on time. Apply in person at 2210 Old Frankfort Pike."
        ),
        u(
            "good but we are also hiring a crew lead, $22, needs 2 yrs experience and spanish is a plus. add that"
        ),
        u("can you make a short version for facebook too"),
        u("shorter. people don't read on facebook"),
    ),
    chat(
        u(
            "I'm trying to get this regex to work, it should match kenyan phone numbers like 0712345678, +254712345678 and 254712345678 but not 071234567\n\n^(\\+?254|0)7\\d{8}$"
        ),
        u("it's failing for 0110 numbers, safaricom has 011x now"),
        u("I want the function to return the number in 2547XXXXXXXX format always"),
        u(
            "nice. this is for the M-Pesa payment thing i'm building for my sister's salon in Kisumu, django backend, daraja api",
            e("project", "m-pesa"),
            e("environment", "django"),
        ),
        u("can you write the normalize function as a django validator as well"),
    ),
    chat(
        u("lol whats the best pizza topping, settle this, my coworker says pineapple"),
        u("coward answer. pick one"),
        u(
            "ok fair, pepperoni and jalapeno is elite though. i put jalapenos on literally everything",
            e("preference", "jalapeno"),
        ),
    ),
    chat(
        u(
            "i have a tig welding question, running 4130 chromoly tube 0.049 wall, what amps and do i need to preheat"
        ),
        u("using 1/16 2% lanthanated tungsten and er70s-2 filler"),
        u(
            "i been stick and mig welding pipeline 15 years but tig on thin tube is new to me, building a roll cage for my boy's dirt car",
            e("skill", "15"),
            e("project", "roll cage"),
            e("relationship", "son"),
        ),
        u("what's the best way to fishmouth the tubes without a notcher"),
        u("appreciate it"),
    ),
    chat(
        u(
            "Hello, I am from Jordan and I teach English in a private school in Irbid. Can you explain me when we use 'used to' and 'would' for past habits, with examples for 12 year old students",
            e("identity", "jordan"),
            e("identity", "teach"),
            e("fact", "irbid"),
        ),
        u(
            "The students confuse 'I used to play' and 'I am used to playing'. How to explain simple"
        ),
        u("Make a worksheet of 10 sentences please, fill the gap"),
        u("Add the answer key at the end"),
    ),
    chat(
        u(
            "stardew question. is it worth doing the joja route on my first save or community center"
        ),
        u("ok community center it is. whats the best crop for summer year 1"),
        u("i cant afford starfruit lol im broke, 3k gold"),
        u("blueberries it is"),
        u("also when does the first spring festival thing happen i forgot"),
    ),
    chat(
        u(
            "The rota for the cafe is killing me. I need an excel formula that counts the hours per person per week from a grid where each cell is like '8-14' or '11-17:30'. Staff down column A, days across B to H"
        ),
        u("that gives #VALUE on the 17:30 ones"),
        u(
            "grand, works. We're a wee cafe on the Perth Road in Dundee, 6 staff, I've had it 4 year now",
            e("fact", "dundee"),
            e("fact", "cafe"),
        ),
        u("can you also flag anyone over 40 hours in red"),
        u(
            "how do i do that on the ipad version of excel, i'm no at the laptop",
            e("environment", "ipad"),
        ),
    ),
    chat(
        u(
            "whats the hours of service rule for 14 hour window, can i stop the clock with a 2 hour break"
        ),
        u("what about the split sleeper 7/3 thing"),
        u(
            "i run dedicated from indianapolis to memphis for a grocery carrier, home every other night, got my cdl in 2011",
            e("identity", "driver"),
            e("skill", "2011"),
            e("fact", "indianapolis"),
        ),
        u("thx. dispatch keeps pushing me to run over and im not doing it"),
    ),
    chat(
        u(
            "can you proofread my daughter's college essay, she doesn't know i'm asking lol:\n\nWhen I was nine, my grandmother taught me to make tamales in her kitchen in El Paso. I remember the steam on the windows and her hands, faster than mine would ever be. Last spring she passed away, and I realized I was the only one in my family who still knew the recipe. This essay is about that kitchen, and about what it means to carry something forward."
        ),
        u("just grammar, don't change her voice"),
        u("is 'faster than mine would ever be' correct or should it be 'were'"),
        u(
            "ok thanks. she's applying to UT Austin and A&M, fingers crossed",
            e("relationship", "daughter"),
        ),
    ),
    chat(
        u(
            "Hi! Quick one. How many hives can I realistically keep on 2 acres in east Tennessee without the bees starving in the dearth"
        ),
        u(
            "I have 3 now, started beekeeping 2 years ago after I retired from teaching",
            e("skill", "beekeep"),
            e("identity", "retired"),
        ),
        u("What should I plant for late summer forage"),
        u("Goldenrod grows wild everywhere around here already so that's easy"),
        u("What about mites, I've been doing oxalic vapor in the fall"),
    ),
    chat(
        u(
            "I am Chinese, doing MSc data science in Edinburgh, graduating in September. Can I switch to the Graduate Route visa from inside UK?",
            e("identity", "chinese"),
            e("fact", "edinburgh"),
            e("fact", "data science"),
        ),
        u("how much is the fee and the IHS"),
        u(
            "my goal is to find a job here and later get the skilled worker visa, probably in fintech",
            e("goal", "skilled worker"),
        ),
        u("what salary does skilled worker need now, I heard it changed"),
        u("ok this is high. thank you"),
    ),
    chat(
        u(
            "finally ditched sublime, moved to neovim last month. how do i set up lsp for python with lazy.nvim, i'm lost",
            e("environment", "neovim", forbid=("sublime",)),
        ),
        u(
            "this is my init.lua so far\n\nrequire('config.lazy')\nvim.opt.number = true\nvim.opt.relativenumber = true\nvim.opt.expandtab = true\nvim.opt.shiftwidth = 4\nvim.g.mapleader = ' '"
        ),
        u("do i need mason or can i just install pyright with npm"),
        u("ok mason it is. and ruff for formatting"),
        u("works!! thank you"),
    ),
    chat(
        u(
            "my grandpa always said 'never trust a man who don't sweat' , is that from somewhere or did he make it up"
        ),
        u("ha he was a character. ok what about 'you can't get blood from a turnip'"),
        u("is that southern or is it everywhere"),
    ),
    chat(
        u(
            "I'm a nurse in Mombasa, 8 years in the ICU, and I want to move to the UK to work in the NHS. What is the process with the NMC?",
            e("identity", "nurse"),
            e("fact", "mombasa"),
            e("skill", "icu"),
            e("goal", "uk"),
        ),
        u("I did IELTS already, got 7.0 overall but 6.5 writing. Is that enough"),
        u("what is OSCE and where do I do it"),
        u("the CBT can i do it in Nairobi"),
        u("thank you so much, this is clearer than the agency explained"),
    ),
    group(
        ("Callum", "Isla", "Fraser"),
        by(
            "Callum",
            "right so game night at mine on saturday, we need a one shot for 4 players, level 3, something spooky",
        ),
        by("Isla", "not another crypt pls. last time i spent 3 hours in a corridor"),
        by(
            "Fraser",
            "im out the back half, im on call for the hospital till 9",
            e("fact", "Fraser", "hospital", forbid=("user",)),
        ),
        by(
            "Callum",
            "ok so lighthouse on a cursed island then. Fraser can join at the second act. ask it for a 3 act outline",
        ),
        by(
            "Isla",
            "and no spiders, i genuinely cannae deal with spiders",
            e("preference", "Isla", "spider", forbid=("user",)),
        ),
        by(
            "Callum",
            "noted lol. I've been DMing since uni so I'll improvise the rest",
            e("skill", "Callum", "uni", forbid=("user",)),
        ),
    ),
    chat(
        u(
            "write me a 30 second tiktok script for an auto repair shop, topic is 'why your check engine light is blinking'. casual, a lil funny"
        ),
        u(
            "the mechanic in it is me so make it first person, i own the shop, Ray's Auto in Shreveport",
            e("fact", "shreveport"),
            e("fact", "ray's auto"),
        ),
        u("make the hook stronger, first 2 seconds"),
        u("lol 'your car is literally screaming at you' is good keep that"),
    ),
    chat(
        u(
            "I need a VBA macro. Sheet 'Orders' has customer in col A, product in B (like 'Layer Pellets 50lb'), qty in C, date in D. I want a summary sheet with total qty per product per month"
        ),
        u(
            "it says Run-time error '1004': Method 'Range' of object '_Worksheet' failed on the line with .Range(\"A1\").CurrentRegion"
        ),
        u("fixed, the sheet was named 'Orders ' with a space lol"),
        u(
            "we're a little feed and seed store, my husband's family's had it since the 60s. I do the books on an old Windows 10 machine with Office 2016",
            e("environment", "windows 10"),
            e("relationship", "husband"),
        ),
    ),
    chat(
        u(
            "Can you explain fractions division to 10 year old? My son does not understand 'keep change flip'. In Russia we learned differently and I cannot explain in English good",
            e("relationship", "son"),
            e("identity", "russia"),
        ),
        u("3/4 divided by 1/2 please show with pizza"),
        u("Good. Now 2 more examples but harder"),
        u("He understood!! Thank you"),
    ),
    chat(
        u(
            "i'm making a little roguelike in godot 4 on weekends, the enemies keep getting stuck on corners with the navigationagent2d. any ideas",
            e("project", "roguelike"),
            e("environment", "godot"),
        ),
        u(
            "func _physics_process(delta):\n\tif target == null:\n\t\treturn\n\tnav.target_position = target.global_position\n\tvar next = nav.get_next_path_position()\n\tvelocity = (next - global_position).normalized() * speed\n\tmove_and_slide()"
        ),
        u("agent radius is 8, tilesize is 16"),
        u("setting the navigation polygon agent radius fixed most of it"),
        u("ty. also gdscript only please, not c#, i never touched c#", e("preference", "gdscript")),
    ),
    chat(
        u("What is the difference between 'affect' and 'effect', I always mix them"),
        u("And 'then' and 'than'?"),
        u(
            "I am an engineer from Egypt, working in Riyadh for a construction company, so I write many emails in English every day",
            e("identity", "engineer"),
            e("identity", "egypt"),
            e("fact", "riyadh"),
            e("fact", "construction"),
        ),
        u(
            "Can you check this email:\n\nDear Mr. Hassan,\nKindly find attached the revised shop drawings for the podium slab. We have took into consideration all the comments from the consultant. Please advice if any further changes is required.\nBest regards,\nAhmed"
        ),
        u("Thanks. 'Please advice' is wrong always?"),
    ),
    chat(
        u(
            "whats a good gift for someone in a care home with dementia, my gran's 92, she's in a home in Inverness and I'm in London so I can only visit every couple months",
            e("fact", "london"),
            e("relationship", "gran"),
        ),
        u("she was a piano teacher for 40 years if that helps"),
        u("a playlist is a good idea. what music would a scottish woman born in 1932 like"),
        u("aw Jimmy Shand, she used to have his records"),
    ),
    chat(
        u(
            "Need help with a sql query. Table ingredients(id, name, unit, on_hand, par_level) and usage(ingredient_id, used_on, qty). I want everything where on_hand is below par and the average daily use over last 14 days"
        ),
        u("it's postgres"),
        u("good. now add the days of stock left column = on_hand / avg daily use"),
        u("divide by zero when there's no usage, fix"),
        u(
            "perfect. this is for the two restaurants i manage, we're getting off spreadsheets finally",
            e("identity", "restaurant"),
        ),
    ),
    group(
        ("Mei Ling", "Hafiz"),
        by(
            "Mei Ling",
            "ok we need 3 instagram captions for the pandan chiffon launch this weekend, tag line something about grandma recipe",
        ),
        by(
            "Hafiz",
            "not grandma again lah, every bakery in Tampines say grandma recipe. I grew up in Tampines, I know",
            e("fact", "Hafiz", "tampines", forbid=("user",)),
        ),
        by(
            "Mei Ling",
            "fine fine. but it IS my ah ma's recipe, I learned it from her in Ipoh when I was small",
            e("fact", "Mei Ling", "ipoh", forbid=("user",)),
        ),
        by(
            "Hafiz",
            "then say it la, just not so cheesy. and mention halal certified, a lot of my customers ask",
        ),
        by("Mei Ling", "ok ask for short ones, under 20 words each, with 2 hashtags max"),
    ),
    chat(
        u(
            "Hello. I live in Belgrade now, moved from Tbilisi in spring because of the rent. How do I register as a freelancer here, the preduzetnik thing?",
            e("fact", "belgrade", forbid=("tbilisi",)),
        ),
        u(
            "I am a frontend developer, React mostly, clients in Germany and Netherlands",
            e("identity", "frontend"),
            e("skill", "react"),
        ),
        u("paušal tax how much per month approximately"),
        u("and do I need a local bank account or can I use Wise"),
        u("ok thank you, very useful"),
    ),
    chat(
        u(
            "I want to make goat cheese, chevre, from raw milk. We have 6 Nubian does on our place in Kentucky. Is raw ok or should I pasteurize",
            e("fact", "goat"),
            e("fact", "kentucky"),
        ),
        u("how do I pasteurize on the stove without curdling it"),
        u("and how much mesophilic culture for a gallon"),
        u("what if i want to sell it at the farmers market, do i need a license in KY"),
        u("ugh ok, that sounds like a lot. maybe just for us and the neighbors for now"),
    ),
    chat(
        u(
            'give me a kitchen cabinet cut list, 36" base cabinet, 24" deep, 34.5" tall box, 3/4 ply, face frame separate'
        ),
        u("i want the back to be 1/4 ply in a dado"),
        u("ok now do it for a 30 inch one"),
        u(
            "i been a finish carpenter 20 some years but my math ain't what it was lol",
            e("identity", "carpenter"),
            e("skill", "20"),
        ),
        u("add the face frame stiles and rails, 1.5 inch stiles"),
    ),
    chat(
        u(
            "from now on can you always give measurements in metric please, my husband is from Norway and can't read the cups and ounces stuff",
            e("instruction", "metric"),
            e("relationship", "norw"),
        ),
        u("ok so the banana bread recipe from before, redo it in grams"),
        u("what's 350F in celsius"),
    ),
    chat(
        u(
            "What is the best way to learn Japanese kanji, I tried anki and I got bored after 2 weeks"
        ),
        u("I want to pass JLPT N3 next december, I'm at N4 level now", e("goal", "n3")),
        u("is wanikani worth the money"),
        u("hmm ok i will try the free levels first"),
    ),
    group(
        ("Artem", "Olga", "Sergei"),
        by(
            "Artem",
            "ok guys, the idea: app for renters in Limassol to rate landlords. we do MVP in 6 weeks",
        ),
        by(
            "Olga",
            "I can do the backend, I do FastAPI at work every day already",
            e("skill", "Olga", "fastapi", forbid=("user",)),
        ),
        by(
            "Sergei",
            "I will do design but I have only evenings, my daughter is 2 months old",
            e("relationship", "Sergei", "daughter", forbid=("user",)),
        ),
        by("Artem", "good. ask it to write user stories for first version, only renter side"),
        by("Olga", "and ask about GDPR, reviews about people can be problem in EU"),
    ),
    chat(
        u(
            "my son is 14 and wants to run a minecraft server for him and his friends, is it safe to host it on our home pc or should we pay for one",
            e("relationship", "son"),
        ),
        u("what's the cheapest decent host for like 8 players"),
        u("he wants mods, the create mod and some other one"),
        u("ok we'll try the paid one for a month"),
    ),
    chat(
        u(
            "hey i run a small pressure washing business in columbus ohio, just me and one guy part time. what should i charge per square foot for driveways",
            e("fact", "pressure wash"),
            e("fact", "columbus"),
        ),
        u("what about house washing, vinyl siding, 2 story"),
        u(
            "can you write me a quick text template to follow up with people who got a quote but didn't book"
        ),
        u("make it less pushy"),
        u(
            "good. and dont use exclamation marks in stuff you write for me, i hate how they look",
            e("instruction", "exclamation"),
        ),
    ),
    chat(
        u(
            "Rewrite this so it sounds more professional, it's from my boss to the team:\n\nHey all, I'm moving to the Singapore office in June and I'll be out most of May packing up. I've been here 11 years and I'm honestly gonna miss you guys. Jen takes over the vendor stuff from now."
        ),
        u("a bit warmer, it's too corporate now"),
        u("perfect, he'll like that"),
    ),
    chat(
        u("how long do i smoke a 14 lb packer at 250"),
        u("wrap at what temp, butcher paper or foil"),
        u("i got a pit boss pellet smoker, not a stick burner", e("environment", "pit boss")),
        u("ok and rest in a cooler how long"),
    ),
    chat(
        u(
            "I'm 34, Singaporean, working as an auditor in one of the big 4. I want to quit and start a small business selling kueh online. Is it realistic?",
            e("identity", "34"),
            e("identity", "singapor"),
            e("identity", "auditor"),
            e("goal", "kueh"),
        ),
        u("what licences do I need from SFA for home based food business"),
        u("my mother makes the best kueh salat, she will help me at the start"),
        u("make a simple 12 month plan, before I resign"),
    ),
    chat(
        u(
            "What's the difference between a heat pump and a regular AC, we're replacing ours and the guy is pushing a heat pump"
        ),
        u(
            "we're in north mississippi, winters get down to the 20s a few nights",
            e("fact", "mississippi"),
        ),
        u("is dual fuel worth it"),
    ),
    chat(
        u(
            "ok random but whats a good hot sauce that isnt just vinegar, i hate tabasco, it tastes like sour water to me",
            e("preference", "tabasco"),
        ),
        u("ive had cholula, its fine. something with more fruit"),
        u(
            "oh the mango habanero one sounds right up my alley. nothing with ghost pepper tho my stomach cant",
            e("preference", "ghost pepper"),
        ),
    ),
    chat(
        u(
            "Can you help me plan the garden beds. I'm in zone 6b, western Kansas, lots of wind",
            e("fact", "kansas"),
        ),
        u(
            "I've been growing tomatoes and peppers for decades but never had luck with carrots, the soil is heavy clay",
            e("skill", "tomato"),
        ),
        u("What about raised beds, how deep for carrots"),
        u("ok 12 inches. whats the cheapest fill"),
        u(
            "This winter I want to finally build a little greenhouse off the south side of the barn, like 10x12",
            e("goal", "greenhouse"),
        ),
    ),
    chat(
        u(
            "Could you check my python, it's for parsing the cooperative's milk delivery sms into a csv\n\nimport re, csv\nPAT = re.compile(r'(\\d+)\\s*L\\s*ID(\\d+)')\nrows = []\nfor line in open('sms.txt'):\n    m = PAT.search(line)\n    if m:\n        rows.append((m.group(2), int(m.group(1))))\nwith open('out.csv','w') as f:\n    csv.writer(f).writerows(rows)"
        ),
        u("some messages are like '12.5L ID0443', the decimal breaks it"),
        u(
            "I'm volunteering as the secretary of our dairy cooperative in Kiambu so I do this every month by hand, I want to automate it",
            e("fact", "kiambu"),
            e("fact", "cooperative"),
        ),
        u("I only have a chromebook, can I run python on it", e("environment", "chromebook")),
        u("linux is enabled, thanks"),
    ),
    chat(
        u("yo how do i beat malenia, i've died like 60 times, strength build +22 greatsword"),
        u("ok bloodhound step dodging the waterfowl, got it"),
        u(
            "i've platinumed every fromsoft game except this one so this is personal lol",
            e("preference", "fromsoft"),
        ),
        u("summoning the jellyfish feels like cheating but ok"),
    ),
    chat(
        u(
            "Dear assistant. Please always answer me in British English spelling, I am preparing for the IELTS and I do not want to learn American spelling by mistake",
            e("instruction", "british"),
            e("goal", "ielts"),
        ),
        u("Explain when to use 'fewer' and 'less'"),
        u(
            "My native language is Mandarin, so articles are very hard for me, 'a' and 'the'",
            e("skill", "mandarin"),
        ),
        u("Give me 10 exercises with articles"),
    ),
)
