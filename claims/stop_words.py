"""PostgreSQL's English stop words (the Snowball list): its index leaves them out, so a
reader's query leaves them out on both databases (trimmed)."""

STOP_WORDS = frozenset(
    """i me my myself we our ours ourselves you your yours yourself yourselves he him his
    himself she her hers herself it its itself they them their theirs themselves what which
    who whom this that these those am is are was were be been being have has had having do
    does did doing a an the and but if or because as until while of at by for with about
    against between into through during before after above below to from up down in out on
    off over under again further then once here there when where why how all any both each
    few more most other some such no nor not only own same so than too very s t can will
    just don should now""".split()
)


def trimmed(words):
    """`words` without the stop words at either end.

    PostgreSQL leaves stop words out of its index, so it can't find them: a
    phrase "the model" finds what "model" finds. Inside a phrase they stay, as
    the distance between its other words ("cost of the model").
    """
    start, stop = 0, len(words)
    while start < stop and words[start] in STOP_WORDS:
        start += 1
    while stop > start and words[stop - 1] in STOP_WORDS:
        stop -= 1
    return words[start:stop]
