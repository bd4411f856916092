"""The values a claim's fields take, shared by the model, its history and the importer."""

from django.db import models

from episodes.models import Status


class ClaimType(models.TextChoices):
    EVALUATION = "evaluation"
    BELIEF = "belief"
    PREDICTION = "prediction"
    RECOMMENDATION = "recommendation"
    UNCERTAINTY = "uncertainty"
    OBSERVATION = "observation"
    PREFERENCE = "preference"
    COMMITMENT = "commitment"
    DISAGREEMENT = "disagreement"


TYPE_MEANINGS = {
    ClaimType.EVALUATION: "A judgement of how good, bad, important or true something is.",
    ClaimType.BELIEF: "Something the speaker holds to be so, stated as their view.",
    ClaimType.PREDICTION: "A statement about what will happen.",
    ClaimType.RECOMMENDATION: "Advice: what someone should do or use.",
    ClaimType.UNCERTAINTY: "An open question or an admitted doubt.",
    ClaimType.OBSERVATION: "A report of something the speaker saw, measured or experienced.",
    ClaimType.PREFERENCE: "What the speaker likes or would choose.",
    ClaimType.COMMITMENT: "Something the speaker says they or their organisation will do.",
    ClaimType.DISAGREEMENT: "A statement that contradicts another person or a common view.",
}


class Attribution(models.TextChoices):
    IDENTIFIED = "identified", "Identified speaker"
    UNRESOLVED = "unresolved", "Unresolved voice"


DEFAULT_UNRESOLVED_LABEL = "Unresolved voice"


class ClaimStatus(models.TextChoices):
    """An episode is a draft or published; a published claim may also be retracted."""

    DRAFT = Status.DRAFT.value, Status.DRAFT.label
    PUBLISHED = Status.PUBLISHED.value, Status.PUBLISHED.label
    RETRACTED = "retracted", "Retracted"


class Verification(models.TextChoices):
    FOUND = "found", "Found in the transcript"
    NOT_FOUND = "not_found", "Not found in the transcript"
    NO_TRANSCRIPT = "no_transcript", "No transcript to check"


# An excerpt not (yet) checked word for word against its transcript.
UNVERIFIED = (Verification.NOT_FOUND, Verification.NO_TRANSCRIPT)


class HorizonPrecision(models.TextChoices):
    """How exactly a prediction names its horizon: "by 3 March", "by March", "by 2027"."""

    DAY = "day", "Day"
    MONTH = "month", "Month"
    YEAR = "year", "Year"


class Resolution(models.TextChoices):
    OPEN = "open", "Open"
    CAME_TRUE = "came_true", "Came true"
    DID_NOT_COME_TRUE = "did_not_come_true", "Did not come true"
    PARTLY = "partly", "Partly came true"
    CANNOT_BE_RESOLVED = "cannot_be_resolved", "Cannot be resolved"


class Due(models.TextChoices):
    """Where an open prediction's horizon falls from today (the claims browser's ?due=)."""

    OVERDUE = "overdue", "Overdue"
    SOON = "soon", "Due soon"
    LATER = "later", "Due later"
    NO_HORIZON = "no_horizon", "No horizon stated"


class Relation(models.TextChoices):
    """How one claim bears on another, read from the linking claim: "A contradicts B"."""

    SUPPORTS = "supports", "supports"
    CONTRADICTS = "contradicts", "contradicts"
    REFINES = "refines", "refines"
    REPEATS = "repeats", "repeats"
    RESPONDS_TO = "responds_to", "responds to"


# The same link read from the other claim: "B is contradicted by A".
INVERSE_WORDING = {
    Relation.SUPPORTS: "supported by",
    Relation.CONTRADICTS: "contradicted by",
    Relation.REFINES: "refined by",
    Relation.REPEATS: "repeated by",
    Relation.RESPONDS_TO: "responded to by",
}


# Trails the indexes that public listings and counts read (claims.models,
# claims.predictions, claims.links), so that the gate's check of the episode is made
# in the index, not in a claims row each: 76 -> 127 ms for the claims browser's page
# of overdue predictions at a million claims without it.
GATE = ("episode_published",)
