"""The offline rules extractor (PAM §25.1 "Extract Memories"): memory types (§5) in English and
Portuguese, statements that must yield nothing, the third-person rewrite, and complete
provenance (§11) on the memories a run writes into a real vault."""

from __future__ import annotations

from pathlib import Path

import pytest

from memvault.extract.base import UserMessage, user_messages
from memvault.extract.confidence import score
from memvault.extract.evaluation import conversation_of
from memvault.extract.pipeline import run
from memvault.extract.rules import (
    EXTRACTOR,
    clauses,
    extract_by_message,
    extract_message,
    rejection,
)
from memvault.extract.stage import extract_messages as extract_by_default
from memvault.model import Memory
from memvault.store.base import StoredConversation
from vaultkit import assert_valid_pam, make_vault


def _extract(text: str) -> list[tuple[str, str]]:
    message = UserMessage("chatgpt", "c1", "m1", text, "2025-05-01T10:00:00Z")
    return [(c.type, c.content) for c in extract_message(message)]


@pytest.mark.parametrize(
    ("text", "type", "content"),
    [
        ("I'm a data engineer at Acme.", "identity", "User is a data engineer at Acme"),
        ("My name is Priya Raman.", "identity", "User's name is Priya Raman"),
        ("I live in Lisbon with my partner.", "fact", "User lives in Lisbon"),
        ("I'm allergic to peanuts.", "fact", "User is allergic to peanuts"),
        ("I prefer concise answers.", "preference", "User prefers concise answers"),
        ("I can't stand cilantro.", "preference", "User dislikes cilantro"),
        ("I speak English, Spanish and Italian.", "skill",
         "User speaks English, Spanish and Italian"),
        ("My daughter Ana starts school soon.", "relationship", "User's daughter is named Ana"),
        ("I'm training for a half marathon.", "goal", "User is training for a half marathon"),
        ("Please always answer in British English.", "instruction",
         "User wants the assistant to always answer in British English"),
        ("Call me Sam.", "instruction", "User wants to be called Sam"),
        ("I use Neovim with a few plugins.", "environment", "User uses Neovim with a few plugins"),
        ("I'm building a budgeting app with SvelteKit.", "project",
         "User is building a budgeting app with SvelteKit"),
        ("I'm on parental leave until March.", "context", "User is on parental leave until March"),
    ],
)  # fmt: skip
def test_pam_5_english_statements_become_typed_third_person_memories(
    text: str, type: str, content: str
) -> None:
    assert (type, content) in _extract(text)


@pytest.mark.parametrize(
    ("text", "type", "content"),
    [
        ("Sou engenheira de dados na Nubank.", "identity",
         "A usuária é engenheira de dados na Nubank"),
        ("Meu nome é João Pedro.", "identity", "O nome do usuário é João Pedro"),
        ("eu moro em Lisboa", "fact", "O usuário mora em Lisboa"),
        ("Moro no Porto, perto da Ribeira.", "fact", "O usuário mora no Porto"),
        ("prefiro respostas curtas", "preference", "O usuário prefere respostas curtas"),
        ("Não gosto de reuniões longas.", "preference", "O usuário não gosta de reuniões longas"),
        ("Falo português, inglês e espanhol.", "skill",
         "O usuário fala português, inglês e espanhol"),
        ("Minha filha Ana começou a escola.", "relationship", "A filha do usuário se chama Ana"),
        ("Estou treinando para uma meia maratona.", "goal",
         "O usuário está treinando para meia maratona"),
        ("Responda sempre em português.", "instruction",
         "O usuário quer que o assistente responda sempre em português"),
        ("Uso Linux no trabalho.", "environment", "O usuário usa Linux no trabalho"),
        ("Estou desenvolvendo um app de receitas.", "project",
         "O usuário está desenvolvendo um app de receitas"),
        ("Estou de férias até segunda.", "context", "O usuário está de férias até segunda"),
    ],
)  # fmt: skip
def test_pam_5_portuguese_statements_stay_portuguese_in_third_person(
    text: str, type: str, content: str
) -> None:
    assert (type, content) in _extract(text)


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("How do I reverse a list in Python?", "question"),
        ("Do you like jazz", "question"),
        ("Qual é a capital da Austrália?", "question"),
        ("If I were a cat, I'd sleep all day.", "hypothetical"),
        ("Suppose I live in Tokyo, what would rent cost", "hypothetical"),
        ("Se eu fosse rico, moraria em Paris.", "hypothetical"),
        ('My friend said "I\'m moving to Mars".', "reported"),
        ("Minha mãe disse que eu sou teimoso.", "reported"),
        ("Maybe I'll learn the piano someday.", "uncertain"),
        ("Acho que sou alérgico a gatos.", "uncertain"),
        ("Use bullet points for this one.", "one-off"),
    ],
)
def test_questions_hypotheticals_quotes_and_uncertainty_yield_nothing(text: str, why: str) -> None:
    assert next(rejection(c) for c in clauses(text)) == why
    assert _extract(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "Thanks, that's really helpful!",
        "Bom dia!",
        "Write a poem about the sea.",
        "I want to know why my Docker build fails.",
        "Quero saber por que meu código não compila.",
        "He lives in Seattle and works at Amazon.",
        "My sister is a lawyer in Boston.",
        "Ela prefere chá.",
        "I love that idea, let's do it.",
    ],
)
def test_small_talk_requests_and_other_people_yield_nothing(text: str) -> None:
    assert _extract(text) == []


def test_pam_25_only_user_messages_are_read() -> None:
    """Assistant, system and tool text never becomes a memory about the user, nor does a
    model's hidden reasoning (`is_thought`) or a code part."""
    stored = conversation_of(
        "c1",
        [
            ("system", "You are helpful. I live in the cloud.", "2025-01-01T00:00:00Z"),
            ("assistant", "I prefer to give balanced answers.", "2025-01-01T00:00:01Z"),
            ("tool", "I live in /usr/local/bin", "2025-01-01T00:00:02Z"),
            ("user", "I live in Porto.", "2025-01-01T00:00:03Z"),
        ],
    )
    document = dict(stored.document)
    messages = list(document["messages"])
    messages.append(
        {
            "id": "thought",
            "role": "user",
            "is_thought": True,
            "content": {"type": "text", "text": "I live in Oslo."},
            "created_at": "2025-01-01T00:00:04Z",
        }
    )
    messages.append(
        {
            "id": "multi",
            "role": "user",
            "content": {
                "type": "multipart",
                "parts": [
                    {"type": "code", "text": "I live in Rome."},
                    {"type": "text", "text": "I'm vegetarian."},
                ],
            },
            "created_at": "2025-01-01T00:00:05Z",
        }
    )
    document["messages"] = messages
    found = [
        c.content
        for m in user_messages(StoredConversation("c1", "chatgpt", document))
        for c in extract_message(m)
    ]
    assert found == ["User lives in Porto", "User is vegetarian"]


def test_first_person_words_inside_a_value_become_third_person() -> None:
    assert _extract("My side project is a Discord bot for my gaming group.") == [
        ("project", "User's project is a Discord bot for their gaming group")
    ]
    assert _extract("Estou escrevendo minha dissertação sobre energia solar.") == [
        ("project", "O usuário está escrevendo sua dissertação sobre energia solar")
    ]


def test_a_list_stays_whole_but_a_new_clause_is_cut_off() -> None:
    assert _extract("I prefer short, concise answers.") == [
        ("preference", "User prefers short, concise answers")
    ]
    assert _extract("I'm vegetarian, so no meat in the recipes please.") == [
        ("fact", "User is vegetarian")
    ]


def test_two_statements_in_one_message() -> None:
    assert _extract("Btw I live in Porto now, and I work at Farfetch.") == [
        ("fact", "User lives in Porto"),
        ("fact", "User works at Farfetch"),
    ]


def test_change_and_polarity_are_marked_for_reconciliation() -> None:
    message = UserMessage("chatgpt", "c1", "m1", "I moved from Berlin to Lisbon.", None)
    (moved,) = extract_message(message)
    assert (moved.slot, moved.value, moved.change, moved.polarity) == (
        "residence",
        "lisbon",
        True,
        True,
    )
    message = UserMessage("chatgpt", "c1", "m1", "Já não moro em Berlim.", None)
    (left,) = extract_message(message)
    assert (left.content, left.slot, left.value, left.change, left.polarity) == (
        "O usuário já não mora em Berlim",
        "residence",
        "berlim",
        True,
        False,
    )


def test_confidence_is_the_score_of_the_statement_s_features_and_lower_when_derived() -> None:
    message = UserMessage("chatgpt", "c1", "m1", "I'm a data engineer at Acme.", None)
    stated, derived = extract_message(message)
    assert stated.confidence == score(stated.features)
    assert derived.derived_from is stated
    assert (derived.type, derived.content) == ("fact", "User works at Acme")
    assert derived.confidence < stated.confidence


def test_pam_11_memories_written_by_a_run_have_complete_provenance(tmp_path: Path) -> None:
    vault = make_vault(tmp_path / "vault")
    try:
        vault.put_conversation(
            conversation_of(
                "conv-42",
                [
                    (
                        "user",
                        "Eu moro em Lisboa. I prefer concise answers.",
                        "2025-02-03T04:05:06Z",
                    ),
                    ("assistant", "Noted!", "2025-02-03T04:05:07Z"),
                ],
                platform="claude",
            )
        )
        report = run(vault)
        assert report.applied is not None and len(report.applied.created) == 2
        memories = vault.list().items
        assert_valid_pam(memories)
        by_language = {m.metadata["language"]: m for m in memories}  # type: ignore[index]
        pt: Memory = by_language["pt"]
        en: Memory = by_language["en"]
        assert pt.content == "O usuário mora em Lisboa" and pt.type == "fact"
        assert en.content == "User prefers concise answers" and en.type == "preference"
        for memory in (pt, en):
            p = memory.provenance
            assert p.platform == "claude"
            assert p.conversation_ref == "conv-42"
            assert p.message_ref == "conv-42-m1"
            assert p.extraction_method == "explicit_user_input"
            assert isinstance(p.extracted_at, str) and p.extracted_at.endswith("Z")
            assert p.extractor == EXTRACTOR and EXTRACTOR.startswith("memvault-rules/")
            assert memory.temporal.valid_from == "2025-02-03T04:05:06Z"
            assert memory.tags == ("extracted", memory.type)
            # the default extractor's confidence: the rules' combined with the learned stage's
            (proposed,) = [
                c
                for c in extract_by_default(
                    [
                        UserMessage(
                            "claude", "c", "m", "Eu moro em Lisboa. I prefer concise answers.", None
                        )
                    ]
                )
                if c.content == memory.content
            ]
            assert memory.confidence.initial == proposed.confidence  # type: ignore[union-attr]
        # DNA-class types (a preference) do not decay; a fact follows the vault's default.
        assert en.confidence.decay_model == "none"  # type: ignore[union-attr]
        assert pt.confidence.decay_model == vault.settings.default_decay_model  # type: ignore[union-attr]
    finally:
        vault.close()


# -- first-person statements as real chats phrase them (benchmarks/extraction_set/realistic_dev.py)


def test_comma_separated_self_statements_each_become_a_memory() -> None:
    found = _extract(
        "A bit about me: I'm 41, I live in Galway, I work as a secondary school teacher"
    )
    assert ("identity", "User is 41 years old") in found
    assert ("fact", "User lives in Galway") in found
    assert ("identity", "User is a secondary school teacher") in found
    found = _extract("Tenho 45 anos, sou de Manaus e moro em São Paulo.")
    assert ("identity", "O usuário tem 45 anos") in found
    assert ("identity", "O usuário é de Manaus") in found
    assert ("fact", "O usuário mora em São Paulo") in found


def test_a_question_after_a_comma_does_not_hide_the_statement_before_it() -> None:
    assert _extract("I love Terry Pratchett, can you do it in his style?") == [
        ("preference", "User likes Terry Pratchett")
    ]
    assert _extract("Tenho asma desde criança, é seguro correr no frio?") == [
        ("fact", "O usuário tem asma")
    ]
    assert ("identity", "O usuário tem 30 anos") in _extract(
        "gente, eu tenho 30 anos e nunca fui pra Europa, bora?"
    )


def test_a_hypothetical_before_a_comma_still_rejects_the_whole_sentence() -> None:
    assert _extract("If I were you, I would live in Lisbon.") == []
    assert _extract("Se eu fosse rico, eu moraria em Paris.") == []


def test_an_aside_or_a_consequence_after_a_comma_is_not_part_of_the_statement() -> None:
    assert _extract("I'm a nurse btw, if that changes anything for immigration") == [
        ("identity", "User is a nurse")
    ]
    assert _extract("ok so for the trip, I'm vegan so no steakhouse please") == [
        ("fact", "User is vegan")
    ]
    assert _extract("eu topo! falo italiano, então Itália seria fácil") == [
        ("skill", "O usuário fala italiano")
    ]


def test_a_skill_stated_with_how_long_or_how_well_is_a_skill() -> None:
    assert _extract("I've played the piano since I was six, mostly classical") == [
        ("skill", "User has played the piano since they were six")
    ]
    assert ("skill", "User has been using SQL for two years") in _extract(
        "For real context, I'm actually 27 and I've only been using SQL for two years"
    )
    assert _extract("I know Lightroom really well but Photoshop not so much") == [
        ("skill", "User knows Lightroom really well")
    ]
    assert _extract("I speak a bit of Spanish myself") == [
        ("skill", "User speaks a bit of Spanish")
    ]
    assert _extract("I speak Yoruba and English at home") == [
        ("skill", "User speaks Yoruba and English")
    ]
    assert _extract("Na real eu mexo com Excel avançado todo dia") == [
        ("skill", "O usuário trabalha com Excel avançado")
    ]


def test_a_habit_with_how_often_is_a_fact_in_the_third_person() -> None:
    assert _extract("I go to the gym four times a week, mostly weightlifting") == [
        ("fact", "User goes to the gym four times a week")
    ]
    assert _extract("I run about 20 km a week") == [("fact", "User runs about 20 km a week")]
    assert _extract("I also sing in a choir on Thursdays") == [
        ("fact", "User sings in a choir on Thursdays")
    ]


def test_a_role_held_for_years_or_with_an_aside_is_an_occupation() -> None:
    assert _extract("I've been a professional photographer for eight years, mostly weddings") == [
        ("identity", "User is a professional photographer")
    ]
    assert _extract("Trabalho como designer gráfico há sete anos") == [
        ("identity", "O usuário é designer gráfico")
    ]
    assert _extract("Trabalhava no Itaú mas agora estou no Nubank, como analista de risco") == [
        ("identity", "O usuário é analista de risco no Nubank"),
        ("fact", "O usuário trabalha no Nubank"),
    ]


def test_a_student_at_a_university_is_not_employed_there() -> None:
    found = _extract("I'm a second-year medical student at King's College London")
    assert [t for t, _ in found] == ["identity"]


def test_studies_diet_conditions_and_what_one_does_not_have_are_facts() -> None:
    assert _extract("Estou fazendo mestrado em linguística na Unicamp") == [
        ("fact", "O usuário faz mestrado em linguística na Unicamp")
    ]
    assert _extract("eu não como carne, lembrem-se") == [("fact", "O usuário não come carne")]
    assert _extract("I'm gluten free, so somewhere with options please") == [
        ("fact", "User is gluten free")
    ]
    assert _extract("I don't have a car and I don't want one") == [
        ("fact", "User doesn't have a car")
    ]
    assert _extract("I work at a small logistics startup in Rotterdam, we ship a lot") == [
        ("fact", "User works at a small logistics startup in Rotterdam")
    ]


def test_living_somewhere_for_years_or_as_a_family_is_a_residence_but_a_flat_is_not() -> None:
    assert ("fact", "User lives in Manchester") in _extract(
        "I'm originally from Lagos but I've lived in Manchester for ten years"
    )
    assert _extract("Moramos em Curitiba, então pode sugerir lugares daqui") == [
        ("fact", "O usuário mora em Curitiba")
    ]
    assert _extract("we live in a flat so it's a problem with the neighbours") == []


def test_starting_to_learn_joining_a_company_and_a_trip_are_goals_and_changes() -> None:
    assert _extract("I'm 52 and I just started learning the guitar") == [
        ("identity", "User is 52 years old"),
        ("goal", "User is learning the guitar"),
    ]
    assert _extract("Comecei a aprender japonês mês passado") == [
        ("goal", "O usuário está aprendendo japonês")
    ]
    assert _extract("Update: I accepted the offer and I'm joining Adyen in September") == [
        ("fact", "User is joining Adyen")
    ]
    assert ("goal", "User is going to Paris in June") in _extract(
        "Honestly I'm going to Paris for real in June"
    )


def test_running_a_marathon_or_changing_jobs_is_a_goal_running_the_script_is_a_request() -> None:
    assert _extract("I want to run a marathon before I turn 40") == [
        ("goal", "User wants to run a marathon before they turn 40")
    ]
    assert _extract("I want to run the script again") == []
    assert _extract("Quero mudar de emprego até o fim do ano") == [
        ("goal", "O usuário quer mudar de emprego até o fim do ano")
    ]
    assert _extract("Quero mudar o título") == []
    assert _extract("Quero aprender Power BI esse ano") == [
        ("goal", "O usuário quer aprender Power BI esse ano")
    ]


def test_getting_something_to_work_is_the_task_at_hand_not_a_goal() -> None:
    assert _extract("I'm trying to get pre-commit to run black on save") == []


def test_two_tools_each_with_its_own_use_are_two_memories_a_list_is_one() -> None:
    assert _extract("I use Poetry for dependencies and VS Code as my editor") == [
        ("environment", "User uses Poetry"),
        ("environment", "User uses VS Code"),
    ]
    assert _extract("Uso Node 20 e TypeScript") == [
        ("environment", "O usuário usa Node 20 e TypeScript")
    ]
    assert _extract("Não uso mais o Windows, mudei para o Ubuntu") == [
        ("environment", "O usuário usa Ubuntu")
    ]


def test_lines_after_a_named_piece_of_writing_are_that_writing() -> None:
    assert (
        _extract("I wrote this poem, what do you think?\nI am the sea, I live in the rain.") == []
    )
    assert _extract("Escrevi esse poema, o que acha?\nEu sou o mar, eu moro na chuva.") == []


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("I play the guitar", ("skill", "User plays the guitar")),
        ("Toco violão", ("skill", "O usuário toca violão")),
        ("Jogo xadrez desde criança", ("skill", "O usuário joga xadrez")),
        ("I'm a beginner at chess", ("skill", "User is a beginner in chess")),
        ("Sou iniciante em programação", ("skill", "O usuário é iniciante em programação")),
        ("Falo um pouco de francês", ("skill", "O usuário fala um pouco de francês")),
        ("I've been learning Korean for a year", ("goal", "User is learning Korean")),
        ("Estou tentando parar de fumar", ("goal", "O usuário está tentando parar de fumar")),
        ("I grew up in Porto", ("fact", "User grew up in Porto")),
        ("Cresci em Belo Horizonte", ("fact", "O usuário cresceu em Belo Horizonte")),
        ("I have a degree in economics", ("fact", "User has a degree in economics")),
        ("Sou formada em direito", ("fact", "O usuário se formou em direito")),
        ("I work in marketing", ("fact", "User works in marketing")),
        ("Trabalho com marketing digital", ("fact", "O usuário trabalha com marketing digital")),
        ("I'm married with three kids", ("relationship", "User is married with three kids")),
        ("I'm single", ("relationship", "User is single")),
    ],
)
def test_instruments_levels_studies_upbringing_fields_and_family_status_are_memories(
    text: str, found: tuple[str, str]
) -> None:
    assert _extract(text) == [found]


@pytest.mark.parametrize(
    "text",
    [
        "I studied it in school",
        "I play with the settings",
        "Estou tentando fazer o build",
        "Estou tentando deixar o gráfico mais bonito.",
        "Trabalho com isso há anos",
    ],
)
def test_the_same_verbs_about_the_task_at_hand_yield_nothing(text: str) -> None:
    assert _extract(text) == []


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("I teach 7th grade science", ("fact", "User teaches 7th grade science")),
        ("I drive a 2015 Honda Civic", ("fact", "User drives a 2015 Honda Civic")),
        ("I don't drink alcohol", ("fact", "User doesn't drink alcohol")),
        ("I go climbing every Sunday", ("fact", "User goes climbing every Sunday")),
        ("I live alone", ("fact", "User lives alone")),
        ("I got a new job at Shopify last month", ("fact", "User got a new job at Shopify")),
        ("I quit my job at Amazon in March", ("fact", "User quit their job at Amazon in March")),
        ("I mostly code in TypeScript", ("skill", "User codes in TypeScript")),
        ("we just adopted a cat called Miso", ("relationship", "User adopted a cat called Miso")),
        ("Dou aula de inglês numa escola pública",
         ("fact", "O usuário dá aula de inglês numa escola pública")),
        ("Dirijo um Gol 2012", ("fact", "O usuário dirige um Gol 2012")),
        ("Não bebo álcool", ("fact", "O usuário não bebe álcool")),
        ("Frequento a igreja aos domingos", ("fact", "O usuário frequenta a igreja aos domingos")),
        ("Saí da Ambev em março", ("fact", "O usuário saiu da Ambev em março")),
        ("Me casei ano passado", ("relationship", "O usuário se casou ano passado")),
        ("Adotei uma gata chamada Frida",
         ("relationship", "O usuário adotou uma gata chamada Frida")),
    ],
)  # fmt: skip
def test_a_first_person_clause_with_a_verb_of_a_person_s_life_is_a_memory_in_any_wording(
    text: str, found: tuple[str, str]
) -> None:
    """The clause detector after every specific pattern: the verb (from a lexicon per PAM
    type) decides the type, whatever words follow it."""
    assert _extract(text) == [found]


@pytest.mark.parametrize(
    "text",
    [
        "I teach it to the model first",
        "I drive this from the config file",
        "I don't care, I eat anything lol",
        "we live in a flat so it's a problem",
        "I got the error again",
        "I quit the app and it still crashes",
        "Não bebo isso",
        "Dirijo o código para a função certa",
        "Frequento essa página todo dia",
    ],
)
def test_a_life_verb_about_the_task_at_hand_or_nothing_in_particular_yields_nothing(
    text: str,
) -> None:
    assert _extract(text) == []


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("I'm really into sourdough baking these days",
         ("preference", "User is into sourdough baking")),
        ("I'm a huge Arsenal fan", ("preference", "User is a fan of Arsenal")),
        ("I'm terrible at math", ("skill", "User is not good at math")),
        ("I'm Priya by the way", ("identity", "User's name is Priya")),
        ("I'm self-employed", ("identity", "User is self-employed")),
        ("I've got type 1 diabetes", ("fact", "User has type 1 diabetes")),
        ("I'm a nurse working night shifts", ("identity", "User is a nurse")),
        ("I work as a barista while I finish my degree", ("identity", "User is a barista")),
        ("Sou fã de carteirinha do Flamengo", ("preference", "O usuário é fã do Flamengo")),
        ("Sou louca por café", ("preference", "A usuária é louca por café")),
        ("Curto muito rock dos anos 80", ("preference", "O usuário curte rock dos anos 80")),
        ("Sou péssimo em matemática", ("skill", "O usuário não é bom em matemática")),
        ("Sou autônoma", ("identity", "A usuária é autônoma")),
        ("Sou mãe de dois meninos", ("relationship", "A usuária é mãe de dois meninos")),
        ("Sou doutora em química", ("fact", "A usuária é doutora em química")),
        ("Sou aposentado", ("context", "O usuário está aposentado")),
        ("Trabalho como garçom enquanto termino a faculdade", ("identity", "O usuário é garçom")),
    ],
)  # fmt: skip
def test_what_one_is_into_bad_at_or_lives_as_is_a_memory_with_agreement(
    text: str, found: tuple[str, str]
) -> None:
    assert _extract(text) == [found]


@pytest.mark.parametrize(
    "text",
    [
        "I'm really into this answer",
        "I'm terrible at it",
        "Sou louco por isso",
        "Sou péssimo nisso",
        "I'm a huge fan of your work",
    ],
)
def test_being_into_or_bad_at_the_task_at_hand_yields_nothing_or_a_low_confidence(
    text: str,
) -> None:
    message = UserMessage("chatgpt", "c1", "m1", text, "2025-05-01T10:00:00Z")
    assert all(c.confidence < 0.9 for c in extract_message(message))


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("my son is 4 and won't sleep in his own bed, any tips?",
         ("relationship", "User has a son")),
        ("in simple english please, my wife will read it also",
         ("relationship", "User has a wife")),
        ("our golden retriever Maple keeps eating socks. how do i stop this",
         ("relationship", "User's retriever is named Maple")),
        ("my cat just knocked my coffee over. her name is Biscuit",
         ("relationship", "User's cat is named Biscuit")),
        ("a minha filha está no 5º ano e pediu-me ajuda com os trabalhos de casa",
         ("relationship", "O usuário tem uma filha")),
        ("escreve um poema pra minha namorada, ela chama Júlia e ama girassol",
         ("relationship", "A namorada do usuário se chama Júlia")),
    ],
)  # fmt: skip
def test_a_partner_a_child_or_a_pet_mentioned_in_passing_is_a_relationship(
    text: str, found: tuple[str, str]
) -> None:
    """Issue #20: one's own household, wherever it is mentioned (a request included)."""
    assert found in _extract(text)


@pytest.mark.parametrize(
    "text",
    [
        "is it safe to drive it 200 miles to my mom's and back",
        "asking for my brother, he's 19 and just got a small inheritance",
        "write a short story where I am a detective and my partner is a talking raven",
        "ele fala assim: 'nenhuma espada salvou minha filha.' melhora essa fala",
    ],
)
def test_a_parent_or_sibling_in_passing_or_a_family_in_a_story_is_not_a_relationship(
    text: str,
) -> None:
    """Issue #20 "the right person": a parent or a sibling unnamed, or anyone in a story or
    a quoted line, is not a memory about the person."""
    assert [found for found in _extract(text) if found[0] == "relationship"] == []


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("fyi im 22 and this is my first flat", ("identity", "User is 22 years old")),
        ("ive been a nurse for 10 years", ("identity", "User is a nurse")),
        ("estou a aprender espanhol porque vou fazer erasmus",
         ("goal", "O usuário está aprendendo espanhol")),
        ("ando a aprender alemão há 6 meses",
         ("goal", "O usuário está aprendendo alemão há 6 meses")),
        ("sou psicologa mas com amigo é sempre mais dificil",
         ("identity", "A usuária é psicologa")),
        ("toco violao ha uns 10 anos", ("skill", "O usuário toca violao")),
        ("i am working as data analyst in Infosys since 2 years",
         ("identity", "User is a data analyst in Infosys")),
    ],
)  # fmt: skip
def test_chat_spellings_and_words_without_accents_are_read_like_the_written_forms(
    text: str, found: tuple[str, str]
) -> None:
    assert found in _extract(text)


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("from now on when I paste notes, always give me the action items as a checklist",
         ("instruction", "User wants the assistant to when they paste notes, always give them "
          "the action items as a checklist")),
        ("also can you stop starting every answer with 'great question'",
         ("instruction", "User wants the assistant to stop starting every answer with "
          "'great question'")),
        ("já agora trata-me por tu",
         ("instruction", "O usuário quer que o assistente o trate por tu")),
    ],
)  # fmt: skip
def test_a_standing_instruction_is_kept_whole_and_can_be_asked_as_a_question(
    text: str, found: tuple[str, str]
) -> None:
    assert found in _extract(text)


def test_a_one_off_question_to_the_assistant_is_still_no_instruction() -> None:
    assert _extract("can you stop here and explain the second step?") == []


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("I'm running it on windows 11 btw, python 3.12", ("environment", "User uses windows 11")),
        ("thanks. fwiw I'm on excel for mac", ("environment", "User uses excel")),
        ("oh I have postgres installed locally too", ("environment", "User uses postgres")),
        ("no pc de casa eu ja uso fedora faz anos",
         ("environment", "O usuário usa fedora faz anos")),
        ("acabei de trocar meu galaxy s21 por um iphone 15",
         ("environment", "O usuário usa iphone 15")),
        ("i use a wheelchair part time so lifts matter",
         ("fact", "User uses a wheelchair part time")),
    ],
)  # fmt: skip
def test_tools_and_aids_named_in_passing_are_what_the_person_uses(
    text: str, found: tuple[str, str]
) -> None:
    assert found in _extract(text)


@pytest.mark.parametrize(
    "text",
    ["I'm running it on the server now", "I have it installed", "Uso isso no trabalho"],
)
def test_a_tool_that_is_the_thing_at_hand_is_not_named(text: str) -> None:
    assert [f for f in _extract(text) if f[0] == "environment"] == []


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("sou motorista de aplicativo aqui em bh", ("fact", "O usuário mora em bh")),
        ("I'm in Abuja now so I can't check venues", ("fact", "User is in Abuja")),
        ("I'm a nurse in ohio", ("fact", "User works in ohio")),
        ("I want to start a poultry farm in Ogun state next year, around 500 broilers to start",
         ("goal", "User wants to start a poultry farm in Ogun state next year")),
        ("I've been thinking about teaching english in japan",
         ("goal", "User is thinking about teaching english in japan")),
        ("to pensando seriamente em migrar pra area de dados",
         ("goal", "O usuário está pensando em migrar pra area de dados")),
    ],
)  # fmt: skip
def test_places_plans_and_run_on_values_are_read_from_realistic_wording(
    text: str, found: tuple[str, str]
) -> None:
    assert found in _extract(text)


def test_a_plan_one_is_thinking_about_is_less_sure_than_a_plan_one_has() -> None:
    thinking = extract_message(
        UserMessage("chatgpt", "c1", "m1", "I'm thinking about moving to Nairobi", None)
    )
    wanting = extract_message(UserMessage("chatgpt", "c1", "m2", "I want to move to Nairobi", None))
    assert thinking[0].confidence < wanting[0].confidence


@pytest.mark.parametrize(
    "text",
    [
        "moro em apartamento, sera que o condominio deixa?",
        "ok sai da personagem",
        "no meu trampo uso docker mas nunca entendi direito o que acontece",
        "I like 'Nne's Kitchen' but give us 5 more",
    ],
)
def test_realistic_task_wording_yields_no_wrong_memory(text: str) -> None:
    found = _extract(text)
    assert ("fact", "O usuário mora em apartamento") not in found
    assert all(t not in {"instruction", "preference"} for t, _ in found), found
    assert all("personagem" not in c for _, c in found), found


@pytest.mark.parametrize(
    "text",
    [
        "I prefer the second version you gave, but make it one sentence",
        "I like the semaphore version better",
        "I don't like option 2, it reveals too much too early",
        "I'm trying to keep the whole script under 50 lines",
        "Prefiro a versão com tópicos",
    ],
)
def test_a_choice_among_the_drafts_of_the_chat_is_not_a_preference_or_goal(text: str) -> None:
    assert _extract(text) == []


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("I prefer the mountains to the beach",
         ("preference", "User prefers the mountains to the beach")),
        ("mas so sei python", ("skill", "O usuário sabe python")),
        ("comecei na farfetch segunda-feira como data engineer",
         ("fact", "O usuário trabalha na farfetch")),
    ],
)  # fmt: skip
def test_a_preference_for_a_thing_of_life_a_known_language_and_a_new_employer_are_kept(
    text: str, found: tuple[str, str]
) -> None:
    assert found in _extract(text)


def test_an_employer_typed_in_lower_case_is_an_employer_but_home_or_oneself_is_not() -> None:
    assert _extract("i work at google as a swe") == [("fact", "User works at google")]
    assert _extract("I work at home mostly") == []
    assert _extract("I work for myself") == []


@pytest.mark.parametrize(
    "text",
    [
        "acordo de confidencialidade anexo",
        "desenho técnico da peça em anexo",
        "jogo de dados com python, como faço?",
        "canto superior direito da tela",
        "treino o modelo com 10 epochs e a loss não cai",
        "sigo o tutorial mas dá erro",
        "cuido do deploy aqui na empresa",
        "I collect the data from an API every hour",
        "I grow the buffer when it is full",
        "I attend to each token with a mask",
    ],
)
def test_a_noun_that_looks_like_a_verb_or_software_work_is_not_a_life_statement(
    text: str,
) -> None:
    """The clause detector's twins: "acordo", "desenho", "jogo", "canto" are nouns as often
    as first-person verbs (only after "eu" or a negation are they read as verbs), and a value
    about the data, the model or the deploy is the work at hand."""
    assert _extract(text) == []


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("eu canto num coral aos sábados", ("fact", "O usuário canta num coral aos sábados")),
        ("Jogo futebol toda quinta", ("fact", "O usuário joga futebol toda quinta")),
        ("não como carne vermelha", ("fact", "O usuário não come carne vermelha")),
    ],
)
def test_the_same_words_as_verbs_after_eu_or_a_negation_are_life_statements(
    text: str, found: tuple[str, str]
) -> None:
    assert found in _extract(text)


def test_a_project_called_my_baby_is_not_a_child() -> None:
    assert _extract("this app is my baby, help me name it") == []
    assert _extract("esse projeto é meu bebê, me ajuda com o nome") == []
    assert ("relationship", "User has a baby") in _extract("my baby won't sleep past 5am")


def test_a_life_statement_ends_at_its_comma() -> None:
    assert _extract("perfeito. já agora, não conduzo, nunca tirei a carta") == [
        ("fact", "O usuário não conduz")
    ]


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("my french is pretty rusty", ("skill", "User's french is rusty")),
        ("boa. meu ingles é intermediario, da pra ver ne kkk",
         ("skill", "O ingles do usuário é intermediario")),
        ("my native language is Yoruba", ("skill", "User's native language is Yoruba")),
        ("English is my second language so be patient",
         ("skill", "User's second language is English")),
        ("minha língua materna é o português",
         ("skill", "A língua materna do usuário é português")),
    ],
)  # fmt: skip
def test_how_well_one_speaks_a_language_and_one_s_mother_tongue_are_skills(
    text: str, found: tuple[str, str]
) -> None:
    assert found in _extract(text)


def test_how_good_the_code_is_is_not_a_language_skill() -> None:
    assert _extract("my code is pretty rusty") == []


# -- general shapes found on unseen chats (issue #20): each with a task-shaped twin -----------


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("ok i'll ring the gp. i also have asthma if that matters for anything",
         ("fact", "User has asthma")),
        ("Please always reply in British English and keep answers under 150 words unless I "
         "ask for more",
         ("instruction", "User wants the assistant to always reply in British English and "
          "keep answers under 150 words")),
        ("fiz o mestrado em engenharia informática na uminho, se isso contar alguma coisa",
         ("fact", "O usuário fez mestrado em engenharia informática na uminho")),
    ],
)  # fmt: skip
def test_an_aside_such_as_if_that_matters_does_not_make_a_statement_hypothetical(
    text: str, found: tuple[str, str]
) -> None:
    assert found in _extract(text)


@pytest.mark.parametrize(
    "text",
    ["if I had asthma could I still run a marathon", "I'd move to Lisbon unless rents go up"],
)
def test_a_real_condition_still_makes_a_statement_hypothetical(text: str) -> None:
    assert _extract(text) == []


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("I have a dodgy knee from football years ago", ("fact", "User has a dodgy knee")),
        ("my doctor says I have tendinitis", None),
        ("I have tendinitis in my wrist", ("fact", "User has tendinitis")),
        ("sounds good but i'm coeliac so the pastry has to be gluten free",
         ("fact", "User is coeliac")),
        ("cadeira é prioridade, tenho escoliose e depois de 4h sentado as costas acabam",
         ("fact", "O usuário tem escoliose")),
        ("tenho hérnia discal na lombar, diagnosticada há 2 anos",
         ("fact", "O usuário tem hérnia discal")),
        ("eu posso ligar. atenção que sou alérgica a marisco, por isso nada de marisqueiras",
         ("fact", "O usuário tem alergia a marisco")),
    ],
)  # fmt: skip
def test_health_conditions_are_read_by_their_shape(
    text: str, found: tuple[str, str] | None
) -> None:
    if found is None:
        assert _extract(text) == []
    else:
        assert found in _extract(text)


@pytest.mark.parametrize(
    "text",
    [
        "I have a question about my knee brace order",
        "I have a bad feeling about this function",
        "tenho uma dúvida sobre a função",
    ],
)
def test_having_a_question_or_a_feeling_is_not_a_condition(text: str) -> None:
    assert _extract(text) == []


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("grand. i'm on rider on an m2 macbook if that matters for the profiler",
         [("environment", "User uses rider"), ("environment", "User uses macbook")]),
        ("tenho o ubuntu 22.04 num thinkpad t480 e o wifi deixou de funcionar",
         [("environment", "O usuário usa ubuntu 22.04"),
          ("environment", "O usuário usa thinkpad t480")]),
        ("I'm the cofounder, stack is django + react native. need help with the GST logic",
         [("identity", "User is a cofounder"), ("environment", "User uses django"),
          ("environment", "User uses react native")]),
        ("aqui na empresa a gente usa postgres pra tudo, entao pode usar coisa especifica dele",
         [("environment", "O usuário usa postgres")]),
    ],
)  # fmt: skip
def test_each_platform_named_in_a_statement_of_use_is_an_environment(
    text: str, found: list[tuple[str, str]]
) -> None:
    assert _extract(text) == found


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("I have a question about Excel formulas", []),
        ("I'm on the last word of the chapter", []),
        ("I'm on node 3 of the tree", []),
        ("tenho o excel aberto, como faço um procv?", []),
        ("thanks. fwiw I'm on excel for mac which has some weird differences",
         [("environment", "User uses excel")]),
        ("Eu programo em Python há uns cinco anos mas Django é novo pra mim",
         [("skill", "O usuário programa em Python há uns cinco anos")]),
    ],
)  # fmt: skip
def test_a_platform_outside_a_statement_of_one_s_own_use_is_not_an_environment(
    text: str, found: list[tuple[str, str]]
) -> None:
    assert _extract(text) == found


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("I am software tester with 3 years of experience",
         [("identity", "User is a software tester")]),
        ("I am Egyptian doctor preparing for PLAB exam to work in UK",
         [("identity", "User is an Egyptian doctor"), ("identity", "User is Egyptian")]),
        ("it's a cake, legally. I'm a solicitor I'd know lol",
         [("identity", "User is a solicitor")]),
        ("I'm the developer here, fix it", []),
        ("I am done with this developer", []),
    ],
)  # fmt: skip
def test_a_job_without_an_article_or_with_the_is_still_an_occupation(
    text: str, found: list[tuple[str, str]]
) -> None:
    assert _extract(text) == found


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("I joined Zomato as SDE-2 last week, earlier I was in TCS for 4 years.",
         [("fact", "User works at Zomato")]),
        ("I joined the call late", []),
        ("ok i like this a lot. im applying for biomedical engineering btw",
         [("goal", "User is applying for biomedical engineering")]),
        ("I'm preparing for the meeting tomorrow", []),
        ("what's a good high protein breakfast, i'm training for my first half marathon in "
         "october",
         [("goal", "User is training for their first half marathon in october")]),
        ("how do I fix this, I'm using the second version", []),
        ("I have 3 years of Python, mostly Django",
         [("skill", "User has 3 years of experience in Python")]),
        ("I have 3 years of data in this spreadsheet", []),
    ],
)  # fmt: skip
def test_joining_applying_for_and_years_of_a_thing_are_read_and_the_task_is_not(
    text: str, found: list[tuple[str, str]]
) -> None:
    assert _extract(text) == found


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("responde-me sempre em tópicos curtos",
         [("instruction", "O usuário quer que o assistente responda sempre em tópicos curtos")]),
        ("achas que me devo candidatar? tenho 2 anos de java, o resto vou aprendendo",
         [("skill", "O usuário tem 2 anos de experiência em java")]),
        ("tenho 26 anos e este é o meu segundo ano a trabalhar",
         [("identity", "O usuário tem 26 anos")]),
        ("segundo o médico eu tenho asma", []),
        ("fiz o backend ontem", []),
        ("voltei a morar em recife depois de 5 anos em lisboa e to achando tudo caro",
         [("fact", "O usuário mora em recife")]),
        ("to fazendo um sistema de cobranca pra academia do meu irmao, ele é personal",
         [("project", "O usuário está fazendo um sistema de cobranca pra academia do seu irmao")]),
        ("to fazendo um resumo do texto", []),
        ("amo viajar, queria separar uma parte pra isso todo mes",
         [("preference", "O usuário adora viajar")]),
    ],
)  # fmt: skip
def test_portuguese_chat_shapes_of_instructions_skills_studies_moves_and_projects(
    text: str, found: list[tuple[str, str]]
) -> None:
    assert _extract(text) == found


def test_a_pet_that_died_is_not_of_the_household_and_the_one_adopted_after_and_we_is() -> None:
    assert _extract("our cat Mochi died last month and we just adopted a kitten called Pepper") == [
        ("relationship", "User adopted a kitten called Pepper")
    ]


def test_someone_else_living_with_the_person_and_their_husband_names_the_husband() -> None:
    assert _extract("ela mora comigo e com meu marido desde janeiro") == [
        ("relationship", "O usuário tem um marido")
    ]
    # the person's own statement with a companion stays one fact
    assert _extract("moro com minha namorada") == [("fact", "O usuário mora com sua namorada")]


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("switched from vscode to neovim last month and i'm struggling with the telescope config",
         [("environment", "User uses neovim")]),
        ("quick update, I'm no longer at Deloitte, started at a fintech called Monzo this week",
         [("fact", "User works at Monzo")]),
        ("moved the button to the left", []),
    ],
)  # fmt: skip
def test_a_life_event_with_the_subject_dropped_is_the_person_s(
    text: str, found: list[tuple[str, str]]
) -> None:
    assert _extract(text) == found


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("I grew up in Chennai but I've been in Manchester for 12 years",
         ("fact", "User lives in Manchester")),
        ("we bought our first house in Derby in august and everything is breaking lol",
         ("fact", "User lives in Derby")),
        ("our place is small, we're in a 2 bed apartment in Queens",
         ("fact", "User lives in Queens")),
        ("I've been in this meeting for an hour", None),
    ],
)  # fmt: skip
def test_years_in_a_place_and_a_home_in_a_place_are_where_one_lives(
    text: str, found: tuple[str, str] | None
) -> None:
    if found is None:
        assert _extract(text) == []
    else:
        assert found in _extract(text)


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("can you swap the salmon for something else, i really can't stand fish",
         [("preference", "User dislikes fish")]),
        ("I can't handle spice at all, like even black pepper is a lot for me lol",
         [("preference", "User dislikes spice")]),
        ("I can't stand this intro, make it shorter", []),
        ("sim, adoro aquilo.", []),
        ("tenho 52 anos e nunca fiz desporto na vida, por onde começo?",
         [("identity", "O usuário tem 52 anos")]),
        ("o meu gato, o Bolacha, comeu um bocado de cebola crua há meia hora, é grave??",
         [("relationship", "O gato do usuário se chama Bolacha")]),
    ],
)  # fmt: skip
def test_dislikes_after_a_request_pointers_and_past_never_are_read_right(
    text: str, found: list[tuple[str, str]]
) -> None:
    assert _extract(text) == found


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("Sou fotógrafo de casamentos em Florianópolis",
         [("identity", "O usuário é fotógrafo de casamentos em Florianópolis"),
          ("fact", "O usuário trabalha em Florianópolis")]),
        ("sou professor de matemática numa secundária em viseu e queria ideias",
         [("identity", "O usuário é professor de matemática numa secundária em viseu"),
          ("fact", "O usuário trabalha em viseu")]),
        ("Hoje sou professor de história", [("identity", "O usuário é professor de história")]),
        ("sou guia de turismo de verdade, quero treinar meu inglês com isso",
         [("identity", "O usuário é guia de turismo")]),
    ],
)  # fmt: skip
def test_the_town_of_a_workplace_and_a_job_after_hoje_are_read(
    text: str, found: list[tuple[str, str]]
) -> None:
    assert _extract(text) == found


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("Deixei de usar o Windows, agora estou no Linux Mint em casa",
         [("environment", "O usuário usa Linux Mint")]),
        ("Tive uma tendinite no joelho no ano passado",
         [("fact", "O usuário teve tendinite no joelho")]),
        ("coloca cerveja sem álcool também, eu parei de beber",
         [("fact", "O usuário parou de beber")]),
        ("parei de receber os e-mails do sistema", []),
        ("I get really bad motion sickness, so no boat tours",
         [("fact", "User gets really bad motion sickness")]),
        ("I get an error when I run it", []),
        ("what are the steps in Ontario? I already have a biology degree",
         [("fact", "User has a biology degree")]),
        ("I've a degree in social care from ATU Sligo",
         [("fact", "User has a degree in social care")]),
        ("I have a license key for this, where do I put it", []),
    ],
)  # fmt: skip
def test_conditions_had_habits_quit_and_credentials_held_are_facts(
    text: str, found: list[tuple[str, str]]
) -> None:
    assert _extract(text) == found


def _extract_chat(*texts: str) -> list[list[tuple[str, str]]]:
    """Each message's memories, the messages said in order in one conversation."""
    messages = [
        UserMessage("chatgpt", "c1", f"m{n}", text, "2025-05-01T10:00:00Z")
        for n, text in enumerate(texts, 1)
    ]
    return [[(c.type, c.content) for c in found] for _, found in extract_by_message(messages)]


def test_what_is_said_inside_a_role_play_is_the_character_s_until_it_ends() -> None:
    assert _extract_chat(
        "vamos fazer um roleplay: vc é o imperador dom pedro II em 1870 e eu sou um jornalista",
        "Majestade, eu cresci no interior da província de Minas. O senhor acredita no trem?",
        "kkkk mt bom. sai do personagem agora: dou aula de historia numa escola em goiania",
        "sou professora há 10 anos",
    ) == [
        [],
        [],
        [("fact", "O usuário dá aula de historia numa escola em goiania")],
        [("identity", "A usuária é professora")],
    ]
    assert _extract_chat(
        "You are a grumpy medieval innkeeper. I am a traveler. Stay in character.",
        "I hate rats. Are there rats in this inn?",
        "Give me three title ideas for a blog post about climbing.",
        "I hate long meetings.",
    ) == [[], [], [], [("preference", "User dislikes long meetings")]]


def test_a_plain_statement_between_the_turns_of_a_role_play_is_the_person_s() -> None:
    assert _extract_chat(
        "Let's role-play: I'm a detective in 1920s Chicago and you're my partner.",
        "I really like spicy food.",
    ) == [[], [("preference", "User likes spicy food")]]


def test_the_first_word_of_the_next_sentence_is_not_a_name() -> None:
    assert (
        _extract("Estamos a organizar a festa de anos da nossa mãe. Podes sugerir um menu?") == []
    )
    assert _extract("my cat knocked my coffee over. her name is Biscuit") == [
        ("relationship", "User's cat is named Biscuit")
    ]


def test_a_dose_started_is_not_a_venture_and_a_value_ends_before_and_need() -> None:
    assert _extract("is it normal to feel dizzy, I started 50mg on monday") == []
    assert [type for type, _ in _extract("I started a podcast about birds")] == ["project"]
    assert _extract("I'm writing a screenplay and need realistic therapist dialogue") == [
        ("project", "User is writing a screenplay")
    ]


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("Can you stop using so many bullet points? Just write normal paragraphs from now on.",
         [("instruction", "User wants the assistant to write normal paragraphs")]),
        ("escreve em tópicos daqui pra frente",
         [("instruction", "O usuário quer que o assistente escreva em tópicos")]),
        ("Going forward, don't suggest recipes with pork or alcohol, I'm Muslim and only eat halal",
         [("instruction", "User wants the assistant not to suggest recipes with pork or alcohol"),
          ("fact", "User eats halal")]),
        ("write the intro again", []),
    ],
)  # fmt: skip
def test_a_standing_marker_at_the_end_makes_an_instruction_and_a_faith_is_not_a_name(
    text: str, found: list[tuple[str, str]]
) -> None:
    assert _extract(text) == found


def test_earning_as_a_job_in_a_town_is_an_occupation_and_where_one_works() -> None:
    assert _extract("loans are 28k at 5.8%, I'm 26 and make 72k as a UX designer in Austin") == [
        ("identity", "User is 26 years old"),
        ("identity", "User is a UX designer in Austin"),
        ("fact", "User works in Austin"),
    ]
    assert _extract("I make 72k, is that enough for a mortgage?") == []


def test_a_state_that_is_over_is_less_sure_than_the_present_and_a_change_is_not_over() -> None:
    def confidence(text: str) -> float:
        message = UserMessage("chatgpt", "c1", "m1", text, "2025-05-01T10:00:00Z")
        (found,) = extract_message(message)
        return found.confidence

    assert confidence("I grew up in Chennai") < confidence("I live in Chennai")
    assert confidence("cresci em Minas") < confidence("moro em Minas")
    # "deixei o Windows, agora estou no Linux Mint": the present is the statement
    assert confidence("Deixei de usar o Windows, agora estou no Linux Mint") == confidence(
        "agora estou no Linux Mint"
    )


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("this is for my side project btw, a habit tracker i've been building on weekends",
         [("project", "User is building a habit tracker")]),
        ("é uma api de reservas para o restaurante dos meus pais que ando a fazer nos tempos "
         "livres",
         [("project",
           "O usuário está fazendo uma api de reservas para o restaurante dos seus pais")]),
        ("an email I'm writing to my boss", []),
        ("é um projeto pessoal que to fazendo em kotlin", []),
        ("fix the function I'm writing", []),
    ],
)  # fmt: skip
def test_a_thing_named_before_one_says_one_is_making_it_is_a_project(
    text: str, found: list[tuple[str, str]]
) -> None:
    assert _extract(text) == found


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("I'm more of a backend person, JavaScript always confuses me",
         [("skill", "User is more of a backend person")]),
        ("nao manjo muito de python ainda, sou mais de excel e vba, uso ha uns 10 anos",
         [("skill", "O usuário é mais de excel e vba")]),
        ("I mostly do android dev in kotlin and android studio eats RAM",
         [("skill", "User does android dev in kotlin")]),
        ("sou mais de ficar em casa", []),
        ("uso há uns 10 anos", []),
    ],
)  # fmt: skip
def test_the_side_of_a_craft_one_works_on_is_a_skill_and_a_bare_duration_is_nothing(
    text: str, found: list[tuple[str, str]]
) -> None:
    assert _extract(text) == found


def test_right_now_of_an_ongoing_activity_is_not_a_one_off_request() -> None:
    assert _extract("I'm learning Portuguese with Duolingo right now but it's slow") == [
        ("goal", "User is learning Portuguese with Duolingo")
    ]
    assert _extract("I'm using bullet points for this one") == []
    assert _extract("use bullet points right now") == []


def test_a_run_over_a_vault_reads_a_role_play_as_the_character_s(tmp_path: Path) -> None:
    """`memvault extract` (the pipeline over stored conversations) follows the role-play frame
    across the messages of a conversation, as the evaluation does."""
    vault = make_vault(tmp_path / "vault")
    try:
        vault.put_conversation(
            conversation_of(
                "conv-rp",
                [
                    (
                        "user",
                        "You are a grumpy innkeeper and I am a traveler. Stay in character.",
                        "2025-02-03T04:05:06Z",
                    ),
                    ("assistant", "What do you want?", "2025-02-03T04:05:07Z"),
                    ("user", "I hate rats. Are there rats in this inn?", "2025-02-03T04:05:08Z"),
                    ("assistant", "No rats here.", "2025-02-03T04:05:09Z"),
                    (
                        "user",
                        "ok stop the roleplay. for real, I live in Porto.",
                        "2025-02-03T04:05:10Z",
                    ),
                ],
                platform="chatgpt",
            )
        )
        run(vault)
        assert [m.content for m in vault.list().items] == ["User lives in Porto"]
    finally:
        vault.close()
