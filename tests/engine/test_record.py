"""The match record (docs/record.md): text <-> record, replay of whole matches of every
variant, claims that disagree, malformed lines, and ``python -m games.engine replay``."""

import random
import subprocess
import sys
from pathlib import Path

import pytest

from games.engine import VARIANTS, Position
from games.engine.match import MatchError, MatchState
from games.engine.record import (
    GameRecord,
    Record,
    RecordError,
    event_item,
    game_items,
    move_item,
    record_from_text,
    record_of,
    record_to_text,
    replay,
)

ROOT = Path(__file__).resolve().parents[2]

# A 1 1 2 B, match of two: game 1 A takes the 1s (3 of 5, decided); game 2 B does
# (B now holds the left end and moves first); 1-1 with 4 each: a drawn match
SMALL = """\
[Site "VOG"]
[Date "2026-12-01"]
[Variant "fast"]
[Format "match"]
[Clock "3+2"]
[A "alice"]
[B "bob"]
[Points "1 1"]
[Totals "4 4"]
[Winners "AB"]
[Reason "drawn"]

[Game "1"]
[Start "square 5x1 4 A112B 3,4 A"]
[Final "square 5x1 4 AAA2B 1,4 B"]
[Scores "3 1"]
[Winners "A"]
[Reason "decided"]
1. A 1

[Game "2"]
[Start "square 5x1 4 B112A 4,3 B"]
[Final "square 5x1 4 BBB2A 4,1 A"]
[Scores "1 3"]
[Winners "B"]
[Reason "decided"]
1. B 1
"""


def full_record() -> Record:
    """Every field used: further header fields, names that need escaping, a swap and
    events."""
    return Record(
        variant="vinco",
        players=['Zoë "the wall"', "back\\slash"],
        games=[
            GameRecord(
                number=1,
                start="square 4x1 4 A12B 3,4 A pie=1",
                moves=["A 1", "B swap", "A 2", "B resigns game"],
                final="square 4x1 4 AAAB 2,1 B r=B",
                scores=[3, 1],
                winners=[0],
                reason="resigned",
            )
        ],
        format="single",
        site="VOG",
        date="2026-12-01",
        clock="5+3",
        tags=[("Rated", "no"), ("URL", "https://vog.example/match/7/")],
        points=[1.0, 0.0],
        totals=[3, 1],
        winners=[0],
        reason="points",
    )


# --- text <-> record -------------------------------------------------------------------------


def test_text_to_record_and_back_is_the_same_text():
    record = record_from_text(SMALL)
    assert record.players == ("alice", "bob")
    assert [game.moves for game in record.games] == [("A 1",), ("B 1",)]
    assert record.points == (1.0, 1.0) and record.winners == (0, 1) and record.reason == "drawn"
    assert record_to_text(record) == SMALL


def test_record_to_text_and_back_is_the_same_record():
    record = full_record()
    text = record_to_text(record)
    assert '[A "Zoë \\"the wall\\""]' in text
    assert '[B "back\\\\slash"]' in text
    assert '[Rated "no"]\n[URL "https://vog.example/match/7/"]' in text
    assert "1. A 1  2. B swap\n3. A 2\nB resigns game\n" in text
    assert record_from_text(text) == record
    # lists given to a record are kept as tuples: records built either way are equal
    assert record.games[0].moves == ("A 1", "B swap", "A 2", "B resigns game")


def test_reading_is_lenient_about_blank_lines_spaces_and_a_byte_order_mark():
    loose = "\ufeff\n\n" + SMALL.replace("1. A 1", "   1.   A   1   ").replace("\n\n", "\n\n\n")
    assert record_from_text(loose) == record_from_text(SMALL)


def test_items_from_moves_and_events():
    assert move_item(1, 3) == "B 3" and move_item(0, "swap") == "A swap"
    assert event_item(3, "resign_match") == "D resigns match"
    assert event_item(None, "abort") == "aborted"
    with pytest.raises(RecordError):
        event_item(None, "flag")
    # an event after move 2 comes before move 3; one after the last move comes last
    items = game_items([(0, 1), (1, 2), (0, 3)], [(2, 1, "flag"), (3, 0, "abandon")])
    assert items == ["A 1", "B 2", "B flags", "A 3", "A abandons"]


def test_a_record_refuses_what_it_cannot_write():
    with pytest.raises(RecordError, match="not a move"):
        GameRecord(1, "square 4x1 4 A12B 3,4 A", ["A red"])
    with pytest.raises(RecordError, match="not a game reason"):
        GameRecord(1, "square 4x1 4 A12B 3,4 A", reason="points")
    game = GameRecord(1, "square 4x1 4 A12B 3,4 A")
    with pytest.raises(RecordError, match="further header field"):
        Record("fast", ["a", "b"], [game], tags=[("Variant", "x")])
    with pytest.raises(RecordError, match="numbered 1, 2"):
        Record("fast", ["a", "b"], [game, game])
    with pytest.raises(RecordError, match="one line"):
        record_to_text(Record("fast", ["a\nb", "c"], [game]))


# --- malformed text --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("old", "new", "line", "message"),
    [
        ('[Site "VOG"]', "[Site VOG]", 1, 'is not a [Key "value"] line'),
        ('[Clock "3+2"]', '[Variant "classic"]', 5, "Variant is given twice"),
        ('[Points "1 1"]', '[Points "1 1 0"]', 8, "3 numbers for 2 seats"),
        ('[Points "1 1"]', '[Points "1 0.3"]', 8, "not 0, ½, 1"),
        ('[Totals "4 4"]', '[Totals "4 four"]', 9, "is not 2 numbers"),
        ('[Winners "AB"]', '[Winners "AC"]', 10, "not a list of seat letters A-B"),
        ('[Reason "drawn"]', '[Reason "decided"]', 11, "not a match reason"),
        ('[Game "1"]', '[Game "2"]', 13, 'expected [Game "1"]'),
        ('[Start "square 5x1 4 A112B 3,4 A"]', '[Start "square 5x1 4 A11B 3,4 A"]', 14, "row 1"),
        ('[Final "square 5x1 4 AAA2B 1,4 B"]', '[Moves "1"]', 15, "not a field of a game"),
        ('[Scores "3 1"]', '[Scores "3 -1"]', 16, "not 0, ½, 1"),
        ("1. A 1\n\n", '1. A 1\n[Reason "filled"]\n', 20, "after the moves of game 1"),
        ("1. A 1\n\n", "2. A 1\n\n", 19, "expected move 1 as '1. <seat letter>"),
        ("1. A 1\n\n", "1. A 1 2. B\n\n", 19, "expected move 2"),
        ("1. A 1\n\n", "1. A 0\n\n", 19, "'A 0' is not a seat letter and a colour 1-9"),
        ("1. A 1\n\n", "1. E 1\n\n", 19, "'E 1' is not a seat letter"),
        ("1. A 1\n\n", "A resigns\n\n", 19, "expected move 1"),
    ],
)
def test_malformed_lines_are_named(old, new, line, message):
    assert SMALL.count(old) >= 1
    text = SMALL.replace(old, new, 1)
    with pytest.raises(RecordError) as failure:
        record_from_text(text)
    assert failure.value.line == line
    assert str(failure.value).startswith(f"line {line}: ")
    assert message in str(failure.value)


def test_missing_parts_are_named():
    with pytest.raises(RecordError, match='line 1: moves before the first \\[Game "1"\\]'):
        record_from_text("1. A 1\n")
    no_names = SMALL.replace('[A "alice"]\n[B "bob"]\n', "")
    with pytest.raises(RecordError, match="line 11: the header has no A line"):
        record_from_text(no_names)
    with pytest.raises(RecordError, match="players are named A, B, C, D in order"):
        record_from_text(SMALL.replace('[B "bob"]', '[B "bob"]\n[D "dan"]'))
    with pytest.raises(RecordError, match="line 13: Start: 2 seats, but 3 players"):
        record_from_text(
            SMALL.replace('[B "bob"]', '[B "bob"]\n[C "carol"]').replace(
                '[Points "1 1"]\n[Totals "4 4"]\n', ""
            )
        )
    with pytest.raises(RecordError, match="line 13: game 1 has no Start line"):
        record_from_text(SMALL.replace('[Start "square 5x1 4 A112B 3,4 A"]\n', ""))
    with pytest.raises(RecordError, match='the record has no \\[Game "1"\\]'):
        record_from_text(SMALL.split("\n\n")[0])


# --- replay -----------------------------------------------------------------------------------


def test_replay_of_the_small_record_agrees():
    result = replay(record_from_text(SMALL))
    assert result.agrees and result.disagreements == ()
    assert [game.reason for game in result.games] == ["decided", "decided"]
    assert result.games[1].position.to_text() == "square 5x1 4 BBB2A 4,1 A"
    assert (result.status, result.points, result.totals) == ("finished", (1.0, 1.0), (4, 4))
    assert (result.winners, result.reason) == ((0, 1), "drawn")


def test_a_wrong_claimed_score_and_result_are_reported():
    text = SMALL.replace('[Scores "3 1"]', '[Scores "4 1"]').replace(
        '[Reason "drawn"]', '[Reason "totals"]'
    )
    result = replay(record_from_text(text))
    assert not result.agrees
    assert result.disagreements == (
        "game 1 scores: the record says 4 1, the replay gives 3 1",
        "match reason: the record says totals, the replay gives drawn",
    )


def test_other_wrong_claims_are_reported():
    text = (
        SMALL.replace('[Start "square 5x1 4 B112A 4,3 B"]', '[Start "square 5x1 4 B121A 4,3 B"]')
        .replace('[Final "square 5x1 4 AAA2B 1,4 B"]', '[Final "square 5x1 4 AA12B 1,4 B"]')
        .replace('[Winners "B"]', '[Winners "A"]')
        .replace('[Points "1 1"]', '[Points "1.5 0.5"]')
    )
    found = replay(record_from_text(text)).disagreements
    assert [line.split(":")[0] for line in found] == [
        "game 1 final position",
        "game 2 start",
        "game 2 winners",
        "match points",
    ]
    assert "the record says 1.5 0.5, the replay gives 1 1" in found[3]


def test_a_record_that_cannot_be_played_is_an_error():
    illegal = SMALL.replace("1. B 1", "1. B 4")  # 4 is A's colour in game 2
    with pytest.raises(RecordError, match=r"game 2, item 1 \(B 4\): colour 4 is A's"):
        replay(record_from_text(illegal))
    out_of_turn = SMALL.replace("1. A 1", "1. B 1")
    with pytest.raises(RecordError, match=r"game 1, item 1 .*not your turn"):
        replay(record_from_text(out_of_turn))
    finished = SMALL.replace("1. A 1\n", "1. A 1\nB resigns match\n")
    with pytest.raises(
        RecordError, match=r"game 2 is recorded, but the match was over \(resigned\)"
    ):
        replay(record_from_text(finished))
    unfinished = SMALL.replace("1. A 1\n", "")
    with pytest.raises(RecordError, match="game 2 is recorded, but the match game 1 has not ended"):
        replay(record_from_text(unfinished))


def test_an_unfinished_match_replays_as_far_as_it_goes():
    text = SMALL.split('[Game "2"]')[0].replace('[Reason "drawn"]\n', "")
    text = text.replace('[Winners "AB"]\n', "").replace('[Points "1 1"]', '[Points "1 0"]')
    result = replay(record_from_text(text.replace('[Totals "4 4"]', '[Totals "3 1"]')))
    assert result.agrees and result.status == "between_games" and result.reason is None


def test_an_aborted_match():
    record = Record(
        "fast",
        ["alice", "bob"],
        [GameRecord(1, "square 5x1 4 A112B 3,4 A", ["A 2", "aborted"])],
        winners=[],
        reason="aborted",
    )
    result = replay(record_from_text(record_to_text(record)))
    assert result.agrees and (result.status, result.reason, result.winners) == (
        "aborted",
        "aborted",
        (),
    )


@pytest.mark.parametrize("between_games", [False, True])
def test_a_match_aborted_after_every_seat_moved_is_recorded_and_replays(between_games):
    """A moderator aborts a stuck match, and a practice table left behind is aborted, at
    any move (SPEC §3), between the games too: its record is written and replays to it."""
    state = MatchState.new(VARIANTS["fast"].new_position(3), games=2)
    while state.status == "playing" and (between_games or len(state.current.moves) < 6):
        position = state.current.position
        state = state.play(position.to_move, position.legal_moves()[0])
    assert not state.can_abort
    assert state.status == ("between_games" if between_games else "playing")
    aborted = state.abort(forced=True)
    record = record_of(aborted, variant="fast", players=["ann", "ben"])
    assert record.games[0].moves[-1] == "aborted"
    result = replay(record_from_text(record_to_text(record)))
    assert result.agrees, result.disagreements
    assert (result.status, result.reason, result.winners) == ("aborted", "aborted", ())
    assert [g.position for g in result.games] == [g.position for g in aborted.games]
    finished = record_to_text(record).replace("aborted\n", "A resigns match\naborted\n")
    with pytest.raises(RecordError, match=r"aborted.*the match is over"):
        replay(record_from_text(finished))


def random_match(key: str, seed: int) -> MatchState:
    """A whole match of ``key`` with random legal moves; every third match has a seat
    resign the game, resign the match, flag or abandon at some point."""
    variant = VARIANTS[key]
    rng = random.Random(f"{key}:{seed}")
    state = MatchState.new(variant.new_position(seed), games=variant.games)
    leave_at = rng.randrange(1, 60) if seed % 3 == 0 else None
    events = ["resign_game", "resign_match", "flag", "abandon"]
    plies = 0
    while state.status in ("playing", "between_games"):
        if state.status == "between_games":
            state = state.start_next_game()
            continue
        plies += 1
        if plies == leave_at:
            seat = rng.choice([s for s in range(state.seats) if s not in state.out])
            try:
                state = getattr(state, rng.choice(events))(seat)
                continue
            except MatchError:
                pass  # that seat is already out of this game: play on
        position = state.current.position
        state = state.play(position.to_move, rng.choice(position.legal_moves()))
    return state


@pytest.mark.parametrize("key", list(VARIANTS))
def test_replay_of_random_whole_matches_reproduces_their_results(key):
    events = 0
    for seed in range(6):
        state = random_match(key, seed)
        events += sum(len(game.events) for game in state.games)
        record = record_of(state, variant=key, players=["ann", "ben", "cat", "dan"][: state.seats])
        text = record_to_text(record)
        again = record_from_text(text)
        assert again == record
        result = replay(again)
        assert result.agrees, result.disagreements
        assert [g.position for g in result.games] == [g.position for g in state.games]
        assert [g.reason for g in result.games] == [g.reason for g in state.games]
        assert (result.points, result.totals) == (state.points, state.totals)
        assert (result.winners, result.reason, result.status) == (
            state.winners,
            state.reason,
            state.status,
        )
    assert events > 0  # some matches ended with a resignation, a flag or abandonment


def test_match_state_keeps_events_where_they_happened():
    state = MatchState.new(Position.from_text("square 9x1 8 A111C2D3B 5,6,7,8 A"), games=2)
    state = state.play(0, 1)  # A decides game 1
    state = state.resign_match(1).start_next_game().play(2, 1)
    assert state.games[0].events == ((1, 1, "resign_match"),)
    assert state.games[1].events == ()
    data = state.to_dict()
    assert data["games"][0]["events"] == [[1, 1, "resign_match"]]
    assert MatchState.from_dict(data) == state
    del data["games"][0]["events"]  # a state stored before events were kept
    assert MatchState.from_dict(data).games[0].events == ()


# --- the command line -------------------------------------------------------------------------


def run_replay(path: Path | str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "games.engine", "--no-color", "replay", str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        input=stdin,
        check=False,
    )


def test_cli_replays_a_file_and_prints_the_results(tmp_path):
    path = tmp_path / "match.txt"
    path.write_text(SMALL, encoding="utf-8")
    done = run_replay(path)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    out = done.stdout
    assert out.startswith("Fast 8×7, 2026-12-01, clock 3+2: A alice, B bob\nGame 1\n")
    assert "  A   A   A   2   B\n" in out  # game 1's final position, drawn
    assert "scores: A 3, B 1\nwinners: A\nreason: decided\nGame 2\n" in out
    assert out.endswith(
        "Match points: A 1, B 1\nMatch totals: A 4, B 4\nMatch result: drawn between AB\n"
    )
    assert run_replay("-", stdin=SMALL).stdout == out


def test_cli_exits_non_zero_when_the_claims_disagree(tmp_path):
    path = tmp_path / "match.txt"
    path.write_text(SMALL.replace('[Scores "1 3"]', '[Scores "1 4"]'), encoding="utf-8")
    done = run_replay(path)
    assert done.returncode == 1
    assert "disagreement: game 2 scores: the record says 1 4, the replay gives 1 3" in done.stderr
    assert done.stderr.strip().endswith("disagree with the replay in 1 place(s)")
    assert "Match result: drawn between AB" in done.stdout


def test_cli_names_the_bad_line_of_a_malformed_file(tmp_path):
    path = tmp_path / "match.txt"
    path.write_text(SMALL.replace("1. B 1", "1. B one"), encoding="utf-8")
    done = run_replay(path)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.strip() == (
        f"{path}: line 27: move 1: 'B one' is not a seat letter and a colour 1-9 or swap"
    )
    missing = run_replay(tmp_path / "nowhere.txt")
    assert missing.returncode == 2 and "cannot read the record" in missing.stderr


def test_the_examples_in_the_docs_replay_and_agree():
    text = (ROOT / "docs" / "record.md").read_text(encoding="utf-8")
    examples = [block for block in text.split("```")[1::2] if block.lstrip().startswith("[Site")]
    assert len(examples) == 2
    for example in examples:
        record = record_from_text(example)
        assert record.reason is not None and replay(record).agrees
