"""Dev-only conversations added to the evaluation set after it was first committed.

The held-out split is left exactly as it was; these records are all ``"split": "dev"`` and are
written by hand, not from the templates (so the template hash rule does not apply to them).
They cover what the templates lacked:

- several statements in one sentence sharing the subject ("I live in Lisbon and work at
  Nubank") beside one value that holds "and" ("rock and roll", "Procter and Gamble", "Bosnia
  and Herzegovina");
- first-person wording about the task at hand that reads like a goal, a project or a liking
  ("I want to make the intro shorter", "I'm working on the slides for tomorrow", "I prefer the
  version with bullet points") beside genuine ones of the same shape — what confidence has to
  tell apart.

Each message is ``(text, expectations)`` as in `templates.py`, without placeholders.
"""

from __future__ import annotations

from typing import Final

from templates import NONE, Template, e

#: Conversations of user messages (an assistant reply is put after each).
EN: Final[tuple[tuple[Template, ...], ...]] = (
    (
        (
            "I live in Lisbon and work at Nubank.",
            (e("fact", "lives", "Lisbon"), e("fact", "works", "Nubank")),
        ),
        ("I want to make the intro shorter and punchier.", NONE),
        ("I like rock and roll.", (e("preference", "rock and roll"),)),
        ("I'm learning Japanese for a trip to Osaka.", (e("goal", "learning", "Japanese"),)),
    ),
    (
        ("I'm a nurse and live in Porto.", (e("identity", "nurse"), e("fact", "lives", "Porto"))),
        ("I like the second option better.", NONE),
        ("I work at Procter and Gamble.", (e("fact", "works", "Procter and Gamble"),)),
        ("I'm trying to lose 5 kg before summer.", (e("goal", "lose", "5 kg"),)),
    ),
    (
        (
            "I love jazz and hate country music.",
            (e("preference", "jazz"), e("preference", "dislikes", "country music")),
        ),
        ("I prefer the version with bullet points.", NONE),
        ("I live in Bosnia and Herzegovina.", (e("fact", "lives", "Bosnia and Herzegovina"),)),
        ("I'm working on a board game about space trade.", (e("project", "board game"),)),
    ),
    (
        (
            "I live in Berlin, work at Siemens and speak German.",
            (
                e("fact", "lives", "Berlin"),
                e("fact", "works", "Siemens"),
                e("skill", "speaks", "German"),
            ),
        ),
        ("I'm working on the intro paragraph now.", NONE),
        ("I want to learn how to play the guitar.", (e("goal", "learn", "guitar"),)),
        ("I'm trying to get the regex to match emails.", NONE),
    ),
    (
        (
            "I'm allergic to peanuts and work at Stripe.",
            (e("fact", "allergic", "peanuts"), e("fact", "works", "Stripe")),
        ),
        ("I'm learning a lot from your answers.", NONE),
        ("I prefer dark mode in every app.", (e("preference", "dark mode"),)),
        ("I'm working on the slides for tomorrow.", NONE),
    ),
    (
        ("I want to live in Lisbon and work at Google.", (e("goal", "live in Lisbon", "Google"),)),
        ("I want to keep the tone friendly but professional.", NONE),
        ("I love cooking for friends.", (e("preference", "cooking"),)),
        ("I'm a huge fan of your work.", NONE),
    ),
    (
        (
            "I moved to Madrid and work at Globex now.",
            (e("fact", "lives", "Madrid"), e("fact", "works", "Globex")),
        ),
        ("I'm trying to decide between two laptops.", NONE),
        ("I want to be more confident when speaking in public.", (e("goal", "confident"),)),
        ("I want to cook something with chickpeas tonight.", NONE),
    ),
    (
        ("I'm planning to move to Berlin next spring.", (e("goal", "move", "Berlin"),)),
        ("My goal is to get the code working today.", NONE),
        ("I hate the new layout of the page.", NONE),
        (
            "I speak English and Spanish and live in Denver.",
            (e("skill", "speaks", "English", "Spanish"), e("fact", "lives", "Denver")),
        ),
    ),
    (
        ("I'm working on question 4 of the homework.", NONE),
        ("I want to start a podcast about urban gardening.", (e("goal", "podcast"),)),
        ("I'm trying to get my React app to build.", NONE),
        ("I love old Westerns.", (e("preference", "westerns"),)),
    ),
    (
        ("I want to rename the variables to snake case.", NONE),
        ("I'm trying to get better at chess.", (e("goal", "chess"),)),
        ("I'm working on my first novel.", (e("project", "novel"),)),
        ("I'm trying to make the chart look nicer.", NONE),
    ),
    (
        ("I love the new logo you made.", NONE),
        ("I prefer trains to planes.", (e("preference", "trains"),)),
        ("I'm trying to sleep at least seven hours a night.", (e("goal", "sleep", "seven hours"),)),
        ("I want to visit Japan with my family.", (e("goal", "visit", "Japan"),)),
    ),
)

PT: Final[tuple[tuple[Template, ...], ...]] = (
    (
        (
            "Moro em Lisboa e trabalho na Nubank.",
            (e("fact", "mora", "Lisboa"), e("fact", "trabalha", "Nubank")),
        ),
        ("Quero deixar o texto mais curto.", NONE),
        ("Gosto de arroz e feijão.", (e("preference", "arroz e feijao"),)),
        ("Estou aprendendo japonês para uma viagem.", (e("goal", "japones"),)),
    ),
    (
        (
            "Sou enfermeira e moro no Porto.",
            (e("identity", "enfermeira"), e("fact", "mora", "Porto")),
        ),
        ("Prefiro a versão com tópicos.", NONE),
        ("Trabalho na Procter e Gamble.", (e("fact", "trabalha", "Procter e Gamble"),)),
        ("Quero aprender a tocar violão.", (e("goal", "violao"),)),
    ),
    (
        ("Adoro jazz e odeio sertanejo.", (e("preference", "jazz"), e("preference", "sertanejo"))),
        ("Estou trabalhando no parágrafo de introdução.", NONE),
        ("Moro na Bósnia e Herzegovina.", (e("fact", "mora", "Bosnia e Herzegovina"),)),
        ("Quero correr uma maratona ano que vem.", (e("goal", "maratona"),)),
    ),
    (
        (
            "Moro em Recife e adoro surfar.",
            (e("fact", "mora", "Recife"), e("preference", "surfar")),
        ),
        ("Adoro a forma como você explicou.", NONE),
        ("Estou aprendendo muito com suas respostas.", NONE),
        ("Adoro cozinhar para os amigos.", (e("preference", "cozinhar"),)),
    ),
    (
        ("Sou vegana e trabalho na Stone.", (e("fact", "vegana"), e("fact", "trabalha", "Stone"))),
        ("Meu objetivo é fazer o código funcionar hoje.", NONE),
        ("Estou montando os slides para amanhã.", NONE),
        ("Quero ser mais confiante ao falar em público.", (e("goal", "confiante"),)),
    ),
    (
        (
            "Falo inglês e espanhol e moro em Campinas.",
            (e("skill", "fala", "ingles", "espanhol"), e("fact", "mora", "Campinas")),
        ),
        ("Odeio o novo layout da página.", NONE),
        ("Uso a versão gratuita do aplicativo.", NONE),
        (
            "Estou trabalhando em um jogo de tabuleiro sobre o espaço.",
            (e("project", "jogo de tabuleiro"),),
        ),
    ),
    (
        ("Estou trabalhando na questão 4 da lista.", NONE),
        ("Quero começar um podcast sobre hortas urbanas.", (e("goal", "podcast"),)),
        ("Quero terminar o primeiro capítulo antes do almoço.", NONE),
        ("Adoro filmes de faroeste.", (e("preference", "faroeste"),)),
    ),
    (
        ("Estou escrevendo meu primeiro romance.", (e("project", "romance"),)),
        ("Prefiro trem a avião.", (e("preference", "trem"),)),
        ("Quero visitar o Japão com minha família.", (e("goal", "visitar", "Japao"),)),
        ("Estou tentando deixar o gráfico mais bonito.", NONE),
    ),
)
