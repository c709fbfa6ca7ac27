"""How the offline interviewer says a focus back: a clean phrase of the respondent's, a noun
they used, "that", or nothing (the cases are data: data/focus_phrases.yaml)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from interview_cli.config.yamlio import load_yaml
from interview_cli.llm.offline.asking.mentions import mention
from interview_cli.llm.offline.asking.phrases import MAX_QUOTE_WORDS, phrase_for
from interview_cli.llm.offline.asking.reference import refer, told_plainly
from interview_cli.llm.offline.asking.tokens import words_of
from interview_cli.llm.offline.asking.topic import thing

CASES: list[dict[str, Any]] = load_yaml(
    (Path(__file__).parent / "data" / "focus_phrases.yaml").read_text(encoding="utf-8")
)


@pytest.mark.parametrize("case", CASES, ids=[f"{i}-{c['label']}" for i, c in enumerate(CASES)])
def test_a_focus_is_said_back_only_as_the_respondent_said_it(case: dict[str, Any]) -> None:
    # (a focus is asked back to when core took the answer's request on it: the cases with
    # ``steer``)
    ref = refer(case["label"], case["answers"], case.get("quotes", ()), asked_back="steer" in case)
    if "phrase" in case:
        expected = case["phrase"]
        assert ref.how == "phrase" and ref.phrase is not None, ref
        assert (ref.phrase.noun, ref.phrase.clause) == (
            expected.get("noun", ""),
            expected.get("clause", ""),
        )
        assert ref.phrase.plural == expected.get("plural", False)
    elif "quote" in case:  # their clause as they said it, when more followed it
        assert ref.how == "phrase" and ref.phrase is not None, ref
        assert ref.phrase.clause == f'"{case["quote"]}"'
        said = [" ".join(words_of(answer)) for answer in case["answers"]]
        assert any(" ".join(words_of(case["quote"])) in answer for answer in said)
    elif "mention" in case:
        assert (ref.how, ref.mention) == ("mention", case["mention"])
    elif "steer" in case:  # asked to go back to it: in their words
        assert (ref.how, ref.mention) == ("steer", case["steer"])
    elif case.get("that"):
        assert ref.how == "that", ref
    else:
        assert ref.how == "none", ref


@pytest.mark.parametrize("case", [c for c in CASES if "phrase" in c], ids=lambda c: c["label"])
def test_a_quoted_phrase_is_verbatim_whole_and_short(case: dict[str, Any]) -> None:
    phrase = phrase_for(case["label"], case["answers"])
    assert phrase is not None
    said = " ".join(words_of(" ".join(case["answers"])))
    assert " ".join(words_of(phrase.verbatim)) in said
    words = words_of(phrase.verbatim)
    # (an "I" leading it is said back as "you": no word of the phrase's length)
    assert len(words) - (words[0] == "i") <= MAX_QUOTE_WORDS


def test_a_label_never_said_is_never_a_phrase() -> None:
    assert refer("focus on the train", ["I like the colour."]).how == "none"
    assert phrase_for("quiet", []) is None


def test_a_quote_longer_than_a_phrase_is_not_quoted() -> None:
    long = "the noise cancelling on the bus home from the late shift at the hospital"
    ref = refer(long, [f"I rely on {long} every night."])
    assert ref.how != "phrase"


def test_the_topic_is_the_respondents_own_word_or_nothing() -> None:
    assert thing("Wireless headphones", ["I love my headphones."]) == "your headphones"
    assert thing("Commuting by bike or e-bike", ["The e-bike is quick."]) == "the e-bike"
    assert thing("Your lawnmower", ["The mower is old."]) == ""
    # a time word of the concept's name is no word for the thing
    assert thing("Morning coffee", ["This morning I was late."]) == ""
    # a word before the head counts only as the topic has it (round 24: "What is one small
    # thing about your customers you'd change?" in a study of customer support)
    assert thing("Customer support", ["half my customers pay by card"]) == ""
    assert thing("Customer support", ["the support was a wall"]) == "the support"
    # ... with the head: alone it may be another thing (round 27: "anything else about the
    # door" in a study of a smart door lock; "the shop" of "not the shop exactly")
    assert thing("Robot vacuum cleaner", ["I press the button on the robot"]) == ""
    assert thing("Keyless smart door lock concept", ["did I lock the door??"]) == ""
    assert thing("Keyless smart door lock concept", ["the door lock is stiff"]) == "the door lock"
    assert thing("Keyless smart door lock concept", ["the lock is stiff"]) == "the lock"
    assert thing("Bike shop and repair experiences", ["not the shop exactly"]) == ""
    # the head is before what modifies it (round 61: "What else matters to you about the
    # cat?" in a study of a dog's food, of "the cat keeps nicking it")
    assert thing("Food for your dog or cat", ["the cat keeps nicking it"]) == ""
    assert thing("Food for your dog or cat", ["the food is grain free"]) == "the food"
    assert thing("Getting to work by bike", ["the bike is quick"]) == "the bike"
    assert thing("Cup of coffee", ["my coffee is cold"]) == "your coffee"  # (review)


def test_a_stand_in_is_never_the_thing_mentioned() -> None:
    # "You mentioned something. And what does that lead to, for you?"
    said = ["it was the first time in ages I had something to give"]
    assert refer("first time had something to give", said).mention == ""
    assert refer("first time had something to give", said).how != "mention"


def test_what_a_relief_stops_is_no_mention_of_it() -> None:
    # Round 145: "its what stops tea being a battle every night" was asked "You talked about the
    # battle. Why is that important to you?" ("the battle isn't important, not having it is!")
    said = ["the kids option, its what stops tea being a battle every night"]
    assert refer("stops tea being a battle", said).mention == ""


def test_the_topic_itself_is_no_mention_of_the_focus() -> None:
    # Round 31 (Tunde): "You talked about the headphones. What does that make possible for
    # you?" in a study of headphones, of "headphones to block it out"
    said = ["daytime is loud, so i need my headphones to block it out. they are everything"]
    assert refer("headphones to block it out", said).mention == "your headphones"
    assert refer("headphones to block it out", said, topic="your headphones").how != "mention"


def test_a_topic_head_spelled_as_a_verb_is_still_its_head() -> None:
    # Round 33 (Zainab): "Which other features or qualities of your phone do you notice?" in a
    # study of "Your mobile phone plan": "plan" was read as a verb, "phone" as the head
    assert thing("Your mobile phone plan", ["i need my phone working there"]) == ""
    assert thing("Your mobile phone plan", ["my plan is 12 quid"]) == "your plan"


def test_a_clause_under_an_if_is_no_phrase_of_theirs() -> None:
    # Round 40: "You mentioned the brakes fail. What is the problem with that for you?" - "They
    # dont fail, I said IF they fail"; round 35: "You said you're stuck in traffic"
    said = ["I dont have a plan B, so if the battery or the brakes fail I am stuck halfway up."]
    assert phrase_for("brakes fail", said) is None
    assert (
        phrase_for("stuck in traffic", ["so if Im stuck in traffic the shift starts bad"]) is None
    )
    # the main clause after the condition is theirs, said whatever
    lasts = ["If they last it means I'm not forever breaking in new ones."]
    assert phrase_for("not forever breaking in new ones", lasts) is not None
    # ... but not what would happen to them after it (rounds 245, 246: "You said you can't
    # work. What does that make harder for you?" - "i said IF my back goes"); a thing's is
    back = ["my back is killing me from the van. if my back goes i cant work, simple"]
    assert phrase_for("cant work", back) is None
    sugars = ["if the sugars go daft I end up on the insulin and the licence gets awkward"]
    assert phrase_for("end up on the insulin", sugars) is None
    porridge = ["well if it tastes of porridge it ruins the coffee doesnt it."]
    assert phrase_for("ruins the coffee", porridge) is not None
    # (nor what a habit spares them: "if I plan the meals I won't waste food", the review)
    meals = ["if I plan the meals I won't waste food, and the kids eat better"]
    assert phrase_for("won't waste food", meals) is not None
    # (what comes of it each time is theirs: a development reading set's rung)
    lidl = ["If I take Lidl brand I stay in 90, and I can put a bit by for the boys"]
    assert phrase_for("stay in 90", lidl) is not None


def test_its_typed_for_it_is_at_a_clause_start_is_no_possessive() -> None:
    # round 73 asked "What is it about its laundry that counts for you?" of "its fine, its
    # laundry"
    said = phrase_for("laundry", ["what is what like, the pile? its fine, its laundry."])
    assert said is not None and said.verbatim == "laundry"
    said = phrase_for("battery", ["I like its battery"])
    assert said is not None and said.verbatim == "its battery"


def test_a_measure_or_a_look_cut_from_what_follows_is_no_phrase_of_theirs() -> None:
    # round 132's closing summary read back "it ended with me pushing a 25 kg"; round 131 asked
    # "You said the wife says you're looking. What does that help you get done?"
    pushing = ["it ended with me pushing a 25 kg bike up the rest of park street"]
    assert phrase_for("ended with me pushing 25 kg", pushing) is None
    assert phrase_for("wife says I'm looking", ["the wife says I'm looking well anyway."]) is None
    # (a measure with nothing after it, or a time, is whole)
    ran = phrase_for("ran 5 km", ["I ran 5 km yesterday"])
    assert ran is not None and ran.verbatim == "I ran 5 km"
    saves = phrase_for("bike saves me 20 minutes", ["the bike saves me 20 minutes door to door"])
    assert saves is not None  # (a count without its article measures no thing after it)


def test_its_right_after_a_clauses_it_opens_the_next_clause() -> None:
    # a typed interview was asked "Why does its money down the drain matter to you?"
    said = ["well if she doesnt eat it its money down the drain, and I end up giving her chicken"]
    found = phrase_for("money down the drain", said)
    assert found is not None and found.verbatim == "it's money down the drain"
    # (given something, it is whose: "I give it its food at six")
    food = phrase_for("food", ["I give it its food at six"])
    assert food is not None and food.verbatim == "its food"


def test_what_was_said_is_not_cut_after_its_anything() -> None:
    # round 135 was asked "You mentioned that the retailer said anything" of "The retailer said
    # anything after 48 hours is a warranty job"
    said = ["The retailer said anything after 48 hours is a warranty job so ring the maker"]
    assert phrase_for("retailer said anything", said) is None
    told = phrase_for("told me everything", ["she told me everything, it was great"])
    assert told is not None  # (whole where the clause ends)
    # (nor a kind denied, cut from what says which: "You mentioned that you're not the parent",
    # a typed interview)
    parent = ["it means I'm not the parent who sent them out in rubbish gear I guess."]
    assert phrase_for("not the parent", parent) is None
    # (nor a wish turned down, cut from the rest of it: round 255 asked "You said you don't
    # want your Liam" of her son, and "... you don't want to be the person paying")
    liam = ["I don't want to be like that again, and I don't want our Liam to be like that either"]
    assert phrase_for("don't want our liam", liam) is None
    gym = ["I don't want to be the person paying for a gym she doesn't go to. sorry"]
    assert phrase_for("don't want to be person paying", gym) is None
    see = ["I wouldn't want our Liam to see me like that"]
    assert phrase_for("wouldn't want our liam", see) is None
    # (whole before a time or a place: the review)
    late = phrase_for("don't want to be late", ["I don't want to be late for work again"])
    assert late is not None


def test_a_verb_after_that_is_no_thing_of_theirs() -> None:
    # round 189 asked "You mentioned the lasted." of "That lasted til I realised ..."
    answers = ["That lasted til I realised I was spending like 3.20 a day, more on nights", "ok"]
    assert refer("lasted til realised spending like 3.20", answers).mention == ""
    # the thing whose name is also a verb keeps its determiner ("the fit")
    assert mention("good fit", ["i love the fit, really", "ok"]) == "the fit"


def test_two_clauses_run_together_are_quoted_whole_or_not_said() -> None:
    # round 189 asked "You said you rang you got someone different." of "every time I rang I
    # got someone different"
    answers = ["every time I rang I got someone different and had to explain it all again", "ok"]
    quotes = ["every time I rang I got someone different"]
    ref = refer("rang got someone different", answers, quotes)
    assert ref.phrase is not None
    assert ref.phrase.clause == '"every time I rang I got someone different"'
    # one clause inside another is one phrase
    phrase = phrase_for("felt they cared", ["honestly i felt they cared about me"])
    assert phrase is not None and phrase.clause == "you felt they cared"


def test_their_words_are_told_back_without_how_they_led_into_them() -> None:
    # round 189's summary and questions: "Just that when you're self employed ...", "the
    # point was he knew his stuff", "The not talking to people thing I guess"
    assert told_plainly("Just that when youre self employed bad support costs you money") == (
        "when youre self employed bad support costs you money"
    )
    assert told_plainly("honestly the point was he knew his stuff tbh") == "he knew his stuff"
    assert told_plainly("The not talking to people thing I guess") == (
        "The not talking to people thing"
    )
    # round 197: what the check-back missed is no "you've missed ..." point; what they missed
    # happening stays as said
    assert told_plainly("you've missed the plastic guilt") == "the plastic guilt"
    assert told_plainly("missed the bus twice that week") == "missed the bus twice that week"
    # round 220: a Welsh "mun", a "see" or "like" closing the clause as a tag is not said back;
    # the verbs are
    assert told_plainly("I can get on with my day mun") == "I can get on with my day"
    assert told_plainly("I'm terrible with needles see") == "I'm terrible with needles"
    assert told_plainly("it's not professional like") == "it's not professional"
    assert told_plainly("the ones I like") == "the ones I like"
    assert told_plainly("as far as I can see") == "as far as I can see"
    assert told_plainly("it looks like") == "it looks like"
    # (the review: "butt" and "Bach" are nouns too, a "see" after how often is the verb)
    assert told_plainly("I'd fall on my butt") == "I'd fall on my butt"
    assert told_plainly("I listen to Bach") == "I listen to Bach"
    assert told_plainly("the bits I never see") == "the bits I never see"
    assert (
        told_plainly("the price tag you can actually see") == "the price tag you can actually see"
    )
    # how, at an end, stays: "what keeps him well"
    assert told_plainly("I trust the vet on what keeps him well") == (
        "I trust the vet on what keeps him well"
    )


def test_how_words_are_told_back_keeps_their_meaning() -> None:
    # (second review) a filler after an adjective is still a filler; "it means" leads in
    # unless what follows is its meaning; a question kept whole before its verb
    assert told_plainly("makes me feel old mate") == "makes me feel old"
    assert told_plainly("it means more time with the kids") == "more time with the kids"
    assert told_plainly("it means a lot to me") == "it means a lot to me"
    assert (
        told_plainly("I meant to batch cook every Sunday") == "I meant to batch cook every Sunday"
    )
    ref = refer("knowing what the plan", ["I like knowing what the plan is for the week", "ok"])
    assert ref.phrase is None or "what the plan" not in ref.phrase.verbatim.split("is")[0][-14:]


def test_a_phrase_does_not_end_before_its_infinitive() -> None:
    # round 197: "You mentioned that you rang the provider more times than you care."
    from interview_cli.llm.offline.asking.reference import refer

    said = "I rang the provider more times than I care to count and every time I got a script"
    ref = refer("rang provider more times than care", [said])
    told = ref.phrase.clause if ref.phrase else ref.mention
    assert not told.rstrip(". ").endswith("care"), told


def test_who_was_the_one_and_whose_noun_are_said_back_whole() -> None:
    # round 210 asked about "the one chasing every time" (of "I was the one chasing every
    # time") and said back "I wasnt at the mercy of some" ("boss" heard as a form of address)
    one = refer("one chasing every time", ["Nobody called me, I was the one chasing every time"])
    assert one.phrase is not None and one.phrase.verbatim == "I was the one chasing every time"
    boss = refer(
        "wasnt at mercy of some boss",
        ["I went freelance so I wasnt at the mercy of some boss, and then I end up stuck"],
    )
    assert boss.phrase is not None and boss.phrase.verbatim.endswith("some boss")


def test_a_doing_after_me_is_said_back_as_it_is() -> None:
    # round 227 asked "You mentioned being able to changing to the bike."
    said = ["Oh hang on, you meant me changing to the bike didnt you, sorry duck."]
    changing = refer("changing to the bike", said)
    assert changing.phrase is not None and changing.phrase.noun == "changing to the bike"
    focus = refer("focus on the train", ["it lets me focus on the train"])
    assert focus.phrase is not None and focus.phrase.noun == "being able to focus on the train"
    # (a verb ending so is no doing yet: the review)
    going = refer("going up the fells", ["Good grip means me going up the fells in winter."])
    assert going.phrase is not None and going.phrase.noun == "going up the fells"
    fling = refer("fling it in the boot", ["It lets me fling it in the boot."])
    assert fling.phrase is not None and fling.phrase.noun == "being able to fling it in the boot"


def test_an_adverb_after_me_makes_it_an_object_not_a_possessive() -> None:
    # round 211 said back "she wrote to your properly"
    from interview_cli.llm.offline.asking.phrases import _shift
    from interview_cli.llm.offline.asking.vocabulary import vocabulary

    v = vocabulary()
    assert _shift("she wrote to me properly".split(), v) == "she wrote to you properly"
    assert _shift("with me family".split(), v) == "with your family"
    # (the review: dialect "me" before an adjective in "-ly" is "your")
    assert (
        _shift("walk the dog for me lovely wife".split(), v) == "walk the dog for your lovely wife"
    )
    # (what someone said is theirs: round 213 said back "she said oh yes that's your mistake")
    assert _shift("she said oh yes that's our mistake".split(), v) == (
        "she said oh yes that's our mistake"
    )


def test_a_thing_asked_about_already_is_not_named_again_for_another_focus() -> None:
    # round 222 asked "You talked about your back" of three nodes ("Third time you've asked me
    # about the back now haha. I meant the trial")
    said = [
        "Ach I dunno. The 100 night trial maybe, meant if it wrecked my back we could send it back."
    ]
    quotes = ["meant if it wrecked my back we could send it back"]
    first = refer("wrecked my back could send back", said, quotes)
    assert first.how == "mention" and first.mention == "your back"
    asked = ["You mentioned your back. And why does that matter to you?"]
    again = refer("wrecked my back could send back", said, quotes, asked=asked)
    assert again.mention != "your back", again


def test_a_word_asked_in_another_sense_is_no_thing_asked_about_already() -> None:
    # (the review: "sore back" after "What would you do if you could go back?" is still "your
    # back")
    ref = refer("sore back", ["my back has been sore for years"], asked=["Could you go back?"])
    assert ref.how == "mention" and ref.mention == "your back"


def test_a_verdict_on_what_was_said_is_no_mention() -> None:
    # round 239 asked "You talked about the disaster." of "if the spin is loud that's a
    # disaster"
    said = ["We run it at night, so if the spin is loud that's a disaster."]
    assert mention("spin loud that's a disaster", said) == "the spin"
    assert mention("what a faff the app", ["What a faff the app is."]) == "the app"
    # (a thing named after "it's a" is still the thing)
    assert mention("it's a bosch", ["It's a Bosch, 9kg."]) == "the Bosch"


def test_a_love_said_to_the_interviewer_is_no_part_of_the_quote() -> None:
    # round 265: 'You said "love it frightens me". What does that let you do?'
    said = ["Honestly love it frightens me. It was nearly £700 all in and I still owe it."]
    ref = refer("frightens", said)
    assert ref.phrase is not None and ref.phrase.verbatim == "it frightens me", ref
    # ... and a love of theirs stays: "I honestly love it, frightens me a bit though"
    for said in (
        "Honestly I love it frightens me. It was nearly 700.",
        "Oh love it when it frightens the cat. It was nearly 700.",
    ):
        ref = refer("frightens", [said])
        assert ref.phrase is not None and "love it" in ref.phrase.verbatim, ref


def test_someone_with_their_verbs_ending_is_no_mention() -> None:
    # round 265: "You mentioned her she'd." of "I sort of promised her she'd never go without"
    said = [
        "When I took her on I sort of promised her she'd never go without again, daft as it sounds."
    ]
    assert mention("promised her she'd never go", said) == ""
    assert refer("promised her she'd never go", said).how != "mention"


def test_what_they_check_said_as_a_sentence_is_said_back_whole() -> None:
    # round 266: "Whether they keep the wet out mostly." could not be said back, so was read
    # with doubt and never asked about; a condition is still no quote of theirs
    said = ["Whether they keep the wet out mostly. Out on the hill every day with the dog"]
    ref = refer("whether keep wet out", said)
    assert ref.phrase is not None and ref.phrase.verbatim.startswith("whether they keep the"), ref
    said = ["I dont have a plan B, so if the battery or the brakes fail I am stuck halfway up."]
    assert refer("battery brakes fail", said).how != "phrase"
