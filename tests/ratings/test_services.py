"""Recording rated results, the update after each match, annulment and recalculation."""

from datetime import timedelta

import pytest
from django.db.models import Count

from accounts.services import member_delete
from ratings import services, tasks
from ratings.glicko2 import Rating, rate, rd_after_inactivity
from ratings.models import Pairing, PlayerRating, RatedMatch, RatingChange
from ratings.periods import InvalidPairings
from ratings.selectors import current_ratings, match_rating_changes
from tests.ratings.conftest import T0, random_history, rate_recorded, snapshot

pytestmark = pytest.mark.django_db


def test_recording_stores_the_result_once_and_queues_the_update_after_commit(
    members, django_capture_on_commit_callbacks, monkeypatch
):
    alice, bob = members[:2]
    queued = []
    monkeypatch.setattr(
        tasks.rating_update, "apply_async", lambda args, link=None: queued.append(args[0])
    )
    with django_capture_on_commit_callbacks(execute=True):
        first = services.match_result_record(
            scale="fast", match_id=41, finished_at=T0, pairings=[(alice.pk, bob.pk, 1.0)]
        )
        again = services.match_result_record(
            scale="fast", match_id=41, finished_at=T0, pairings=[(alice.pk, bob.pk, 0.0)]
        )
    assert first.pk == again.pk == 41
    assert RatedMatch.objects.count() == 1
    assert list(Pairing.objects.values_list("score", flat=True)) == [1.0]
    assert queued == [41]
    # Recorded, not yet rated: nobody's rating moved.
    assert not RatingChange.objects.exists()


@pytest.mark.parametrize(
    ("scale", "pairings"),
    [
        ("vinco", [(0, 1, 1.0)]),
        ("fast", [(0, 1, 0.7)]),
        ("fast", [(0, 0, 1.0)]),
        ("fast", []),
        ("fast", [(0, 1, 1.0), (0, 2, 1.0)]),
        ("four", [(0, 1, 1.0), (0, 2, 1.0), (0, 3, 1.0), (1, 2, 1.0), (1, 3, 1.0)]),
        # Pairs with partners A and C meeting instead of C and D.
        ("pairs", [(0, 1, 1.0), (0, 3, 1.0), (0, 2, 1.0), (1, 3, 0.5)]),
    ],
)
def test_invalid_results_are_refused_and_store_nothing(members, scale, pairings):
    ids = [m.pk for m in members]
    pairings = [(ids[a], ids[b], s) for a, b, s in pairings]
    # An unrated scale is a ValueError of its own; every bad set of pairings is
    # InvalidPairings (a ValueError too, so callers catch both alike).
    expected = ValueError if scale == "vinco" else InvalidPairings
    with pytest.raises(expected) as refused:
        services.match_result_record(scale=scale, match_id=1, finished_at=T0, pairings=pairings)
    assert (type(refused.value) is InvalidPairings) == (scale != "vinco")
    assert not RatedMatch.objects.exists() and not PlayerRating.objects.exists()


def test_a_full_win_moves_both_ratings_by_the_glicko2_amounts(members):
    alice, bob = members[:2]
    assert rate_recorded("fast", 1, [(alice.pk, bob.pk, 1.0)]) == 1
    ratings = current_ratings([alice.pk, bob.pk], "fast")
    expected = rate(Rating(), [(Rating(), 1.0)])
    assert ratings[alice.pk].rating == pytest.approx(expected.rating)
    assert ratings[alice.pk].rd == pytest.approx(expected.rd)
    assert ratings[bob.pk].rating == pytest.approx(3000 - expected.rating)
    assert ratings[alice.pk].matches == ratings[bob.pk].matches == 1
    change = RatingChange.objects.get(player__member=alice)
    assert (change.rating_before, change.rd_before, change.volatility_before) == (1500, 350, 0.06)
    assert change.rating_after == pytest.approx(expected.rating)
    assert change.rated_match_id == 1
    row = PlayerRating.objects.get(member=alice, scale="fast")
    assert (row.wins, row.draws, row.losses, row.last_played_at) == (
        1,
        0,
        0,
        T0 + timedelta(hours=1),
    )


def test_each_result_moves_ratings_the_right_way_and_by_the_maths(members):
    alice, bob, carol, dave, erin, frank = (m.pk for m in members)
    rate_recorded("classic", 1, [(alice, bob, 1.0)])  # 2-0 or 1½-½: a full win
    rate_recorded("classic", 2, [(carol, dave, 0.6)])  # 1-1, carol more in total
    rate_recorded("classic", 3, [(erin, frank, 0.5)])  # drawn match
    ratings = current_ratings([alice, bob, carol, dave, erin, frank], "classic")
    full = rate(Rating(), [(Rating(), 1.0)])
    totals = rate(Rating(), [(Rating(), 0.6)])
    assert ratings[alice].rating == pytest.approx(full.rating, abs=1e-9)
    assert ratings[carol].rating == pytest.approx(totals.rating, abs=1e-9)
    assert ratings[dave].rating == pytest.approx(3000 - totals.rating, abs=1e-9)
    assert ratings[alice].rating > ratings[carol].rating > 1500 > ratings[dave].rating
    assert ratings[bob].rating < ratings[dave].rating
    assert ratings[erin].rating == ratings[frank].rating == pytest.approx(1500, abs=1e-9)
    assert ratings[erin].rd < 350

    # A drawn match between the favourite and the underdog: the favourite loses rating.
    before = ratings
    later = T0 + timedelta(hours=30)
    rate_recorded("classic", 4, [(alice, bob, 0.5)], at=later)
    after = current_ratings([alice, bob], "classic")
    days = (later - (T0 + timedelta(hours=1))).total_seconds() / 86400
    a = Rating(
        before[alice].rating, rd_after_inactivity(before[alice].rd, days), before[alice].volatility
    )
    b = Rating(
        before[bob].rating, rd_after_inactivity(before[bob].rd, days), before[bob].volatility
    )
    assert after[alice].rating == pytest.approx(rate(a, [(b, 0.5)]).rating, abs=1e-9)
    assert after[bob].rating == pytest.approx(rate(b, [(a, 0.5)]).rating, abs=1e-9)
    assert after[alice].rating < before[alice].rating and after[bob].rating > before[bob].rating
    row = PlayerRating.objects.get(member_id=alice, scale="classic")
    assert (row.matches, row.wins, row.draws, row.losses) == (2, 1, 1, 0)
    assert PlayerRating.objects.get(member_id=dave, scale="classic").losses == 1


def test_four_players_and_pairs_store_one_change_per_player(members):
    a, b, c, d = (m.pk for m in members[:4])
    # A first; B second, ahead of C on totals at equal points; C and D level in everything.
    four = [(a, b, 1.0), (a, c, 1.0), (a, d, 1.0), (b, c, 0.6), (b, d, 1.0), (c, d, 0.5)]
    rate_recorded("four", 1, four)
    changes = {
        row["player__member"]: row
        for row in RatingChange.objects.values("player__member", "score", "opponents", "outcome")
    }
    assert {k: (v["score"], v["opponents"], v["outcome"]) for k, v in changes.items()} == {
        a: (3.0, 3, "win"),
        b: (1.6, 3, "win"),
        c: (pytest.approx(0.9), 3, "loss"),
        d: (0.5, 3, "loss"),
    }
    ratings = current_ratings([a, b, c, d], "four")
    assert ratings[a].rating > ratings[b].rating > 1500 > ratings[c].rating > ratings[d].rating
    rate_recorded("pairs", 2, [(a, b, 0.6), (a, d, 0.6), (c, b, 0.6), (c, d, 0.6)])
    pairs = RatingChange.objects.filter(scale="pairs")
    assert pairs.count() == 4
    assert set(pairs.values_list("opponents", flat=True)) == {2}
    assert (
        current_ratings([a, b], "pairs")[a].rating
        > 1500
        > current_ratings([a, b], "pairs")[b].rating
    )


def test_the_update_run_twice_changes_nothing(members):
    alice, bob = members[:2]
    services.match_result_record(
        scale="hex", match_id=5, finished_at=T0, pairings=[(alice.pk, bob.pk, 1.0)]
    )
    assert tasks.rating_update(5) == 1
    once = snapshot("hex")
    assert tasks.rating_update(5) == 0
    assert tasks.rating_update.apply(args=[5]).get() == 0
    assert snapshot("hex") == once


def test_nothing_but_a_recorded_result_creates_changes(members):
    alice = members[0]
    assert tasks.rating_update(999) == 0  # never recorded: an unrated or aborted match
    assert services.scale_recalculate(scale="fast") == 0
    assert not RatingChange.objects.exists() and not PlayerRating.objects.exists()
    assert current_ratings([alice.pk], "fast")[alice.pk].provisional
    assert current_ratings([alice.pk], "fast")[alice.pk].rating == 1500


def test_a_result_arriving_late_is_rated_in_finishing_order(members):
    ids = random_history("fast", members, 11, seed=3)
    for match_id in ids:
        services.match_rating_update(match_id=match_id)
    # Match 12 finished between matches 4 and 5 but its result comes in only now.
    between = RatedMatch.objects.get(pk=4).finished_at + timedelta(seconds=1)
    alice, bob = members[:2]
    services.match_result_record(
        scale="fast", match_id=12, finished_at=between, pairings=[(alice.pk, bob.pk, 1.0)]
    )
    assert services.match_rating_update(match_id=12) == 1 + 11 - 4
    incremental = snapshot("fast")
    services.scale_recalculate(scale="fast")
    assert snapshot("fast") == incremental
    assert not RatedMatch.objects.filter(applied=False).exists()


def test_annul_then_recalculation_equals_a_recomputation_from_scratch(members, moderator):
    ids = random_history("classic", members, 40, seed=7)
    for match_id in ids:
        services.match_rating_update(match_id=match_id)
    before_annul = snapshot("classic")
    annulled = services.match_annul(
        match_id=ids[15], by=moderator, reason="Played against a second account"
    )
    assert annulled.annulled_by == moderator and annulled.annul_reason.startswith("Played")
    assert tasks.scale_recalculate("classic", from_match_id=ids[15]) == 40 - 15 - 1
    recalculated = snapshot("classic")
    assert recalculated != before_annul
    assert not RatingChange.objects.filter(rated_match_id=ids[15]).exists()
    services.scale_recalculate(scale="classic")
    assert snapshot("classic") == recalculated
    # And both equal the maths run by hand over the matches that still count.
    expected = _by_hand("classic", exclude={ids[15]})
    got = {pk: (r, rd, vol) for pk, _, r, rd, vol, *_ in recalculated[0]}
    assert got.keys() == expected.keys()
    for pk, (r, rd, vol) in expected.items():
        assert got[pk] == pytest.approx((r, rd, vol), abs=1e-9)


def _by_hand(scale, exclude):
    state: dict[int, tuple[Rating, object]] = {}
    for rated in RatedMatch.objects.filter(scale=scale).order_by("finished_at", "match_id"):
        players = {p.pk for p in PlayerRating.objects.filter(scale=scale)}
        for pk in players:
            state.setdefault(pk, (Rating(), None))
        if rated.pk in exclude:
            continue
        (pairing,) = rated.pairings.all()
        grown = {}
        for pk in (pairing.player_id, pairing.opponent_id):
            rating, last = state[pk]
            days = 0 if last is None else (rated.finished_at - last).total_seconds() / 86400
            grown[pk] = Rating(
                rating.rating, rd_after_inactivity(rating.rd, days), rating.volatility
            )
        a, b = pairing.player_id, pairing.opponent_id
        state[a] = (rate(grown[a], [(grown[b], pairing.score)]), rated.finished_at)
        state[b] = (rate(grown[b], [(grown[a], 1 - pairing.score)]), rated.finished_at)
    return {pk: (r.rating, r.rd, r.volatility) for pk, (r, _) in state.items()}


def test_annulling_needs_a_reason_and_happens_once(members, moderator):
    alice, bob = members[:2]
    rate_recorded("fast", 1, [(alice.pk, bob.pk, 1.0)])
    with pytest.raises(ValueError):
        services.match_annul(match_id=1, by=moderator, reason="  ")
    services.match_annul(match_id=1, by=moderator, reason="Cheating")
    with pytest.raises(services.AlreadyAnnulled):
        services.match_annul(match_id=1, by=moderator, reason="Again")
    with pytest.raises(RatedMatch.DoesNotExist):
        services.match_annul(match_id=2, by=moderator, reason="Unknown")


def test_an_annulled_match_recorded_again_stays_annulled_and_unrated(members, moderator):
    alice, bob = members[:2]
    rate_recorded("fast", 1, [(alice.pk, bob.pk, 1.0)])
    services.match_annul(match_id=1, by=moderator, reason="Cheating")
    services.match_rating_update(match_id=1)  # the update alone already undoes it
    services.match_result_record(
        scale="fast", match_id=1, finished_at=T0, pairings=[(alice.pk, bob.pk, 1.0)]
    )
    services.match_rating_update(match_id=1)
    assert not RatingChange.objects.exists()
    assert current_ratings([alice.pk], "fast")[alice.pk].rating == 1500
    assert current_ratings([alice.pk], "fast")[alice.pk].matches == 0


def test_a_deleted_members_rating_stays_anonymous_and_recalculation_still_agrees(members):
    alice, bob, carol = members[:3]
    rate_recorded("fast", 1, [(alice.pk, bob.pk, 1.0)])
    rate_recorded("fast", 2, [(bob.pk, carol.pk, 0.6)])
    rate_recorded("fast", 3, [(alice.pk, carol.pk, 0.5)])
    before = snapshot("fast")
    member_delete(member=bob)
    assert PlayerRating.objects.filter(member=None, scale="fast").count() == 1
    services.scale_recalculate(scale="fast")
    players, changes = snapshot("fast")
    assert changes == before[1]
    assert [row[2:] for row in players] == [row[2:] for row in before[0]]
    assert [c["member_id"] for c in match_rating_changes(2)] == [None, carol.pk]


def test_match_rating_changes_gives_the_rounded_change_for_the_banner(members):
    alice, bob = members[:2]
    rate_recorded("fast", 1, [(alice.pk, bob.pk, 1.0)])
    changes = match_rating_changes(1)
    assert [c["member_id"] for c in changes] == [alice.pk, bob.pk]
    assert [c["change"] for c in changes] == [162, -162]
    assert changes[0]["rating_before"] == 1500 and changes[0]["scale"] == "fast"
    assert changes[0]["username"] == "alice"
    assert match_rating_changes(2) == []


def test_record_counts_only_rated_matches(members):
    alice, bob = members[:2]
    random_history("fast", [alice, bob], 5)
    assert PlayerRating.objects.aggregate(n=Count("pk"))["n"] == 2
    assert all(not r.matches for r in PlayerRating.objects.all())


def test_the_sweep_rates_what_a_lost_task_did_not_in_order(members):
    """Results recorded while the worker or Redis was down (their tasks lost: nothing
    here runs after commit) are rated by the beat's sweep, in the order they finished;
    one recorded late, before matches already rated, replays the scale from it on."""
    alice, bob, carol = members[:3]
    for match_id, pair in ((11, (alice, bob)), (12, (bob, carol)), (13, (alice, carol))):
        services.match_result_record(
            scale="fast",
            match_id=match_id,
            finished_at=T0 + timedelta(hours=match_id),
            pairings=[(pair[0].pk, pair[1].pk, 1.0)],
        )
    assert not RatingChange.objects.exists()
    assert tasks.ratings_catch_up() == 3
    swept = snapshot("fast")
    assert RatingChange.objects.count() == 6
    services.scale_recalculate(scale="fast")  # the reference: everything in order
    assert snapshot("fast") == swept
    assert tasks.ratings_catch_up() == 0  # nothing left: a second sweep changes nothing
    # A result that finished before them all, recorded only now.
    services.match_result_record(
        scale="fast", match_id=10, finished_at=T0, pairings=[(carol.pk, alice.pk, 0.0)]
    )
    assert tasks.ratings_catch_up() == 4  # from it on
    late = snapshot("fast")
    services.scale_recalculate(scale="fast")
    assert snapshot("fast") == late != swept
