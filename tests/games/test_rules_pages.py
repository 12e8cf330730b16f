"""The rules topics in six languages: they exist, they are translated, they carry their
seed's key terms, and their numbers agree with the engine's variants."""

import re
from html.parser import HTMLParser

import pytest

from games.engine import VARIANTS
from games.topics import TOPICS

pytestmark = pytest.mark.django_db

LANGUAGES = ["en", "bg", "el", "pt", "nl", "es"]
TOPIC_KEYS = list(TOPICS)

# Each language's key terms, as its seed writes them: equator, match, the 0.6 / 0.4 rule,
# keys 1–9 and the five rated variants.
KEY_TERMS = {
    "en": [
        "equator",
        "match",
        "0.6",
        "0.4",
        "1–9",
        "Fast 8×7",
        "Classic 15×15",
        "Hexagons 13×11",
        "Four players",
        "Pairs",
    ],
    "es": [
        "ecuador",
        "match",
        "0,6",
        "0,4",
        "1–9",
        "Rápido 8×7",
        "Clásico 15×15",
        "Hexágonos 13×11",
        "A cuatro",
        "Parejas",
    ],
    "pt": [
        "equador",
        "match",
        "0,6",
        "0,4",
        "1–9",
        "Rápido 8×7",
        "Clássico 15×15",
        "Hexágonos 13×11",
        "A quatro",
        "Duplas",
    ],
    "nl": [
        "evenaar",
        "match",
        "0,6",
        "0,4",
        "1–9",
        "Snel 8×7",
        "Klassiek 15×15",
        "Zeshoeken 13×11",
        "Met z’n vieren",
        "Duo’s",
    ],
    "bg": [
        "екватор",
        "мач",
        "0,6",
        "0,4",
        "1–9",
        "Бърз 8×7",
        "Класика 15×15",
        "Шестоъгълници 13×11",
        "Четирима",
        "Двойки",
    ],
    "el": [
        "ισημερινός",
        "αγώνα",
        "0,6",
        "0,4",
        "1–9",
        "Γρήγορο 8×7",
        "Κλασικό 15×15",
        "Εξάγωνα 13×11",
        "Τέσσερις παίκτες",
        "Ζευγάρια",
    ],
}


class ArticleText(HTMLParser):
    """The text of a page's ``<main>`` (SVG titles included: they are the diagrams' text
    alternatives); apart from it, the article's own prose (without the facts table) and the
    text of each facts-table cell."""

    def __init__(self):
        super().__init__()
        self.main = self.facts = 0
        self.parts: list[str] = []
        self.prose_parts: list[str] = []
        self.cells: dict[str, str] = {}
        self._cell: str | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "main":
            self.main += 1
        if tag == "table" and "facts-table" in (attrs.get("class") or ""):
            self.facts += 1
        if tag == "td" and (attrs.get("class") or "").startswith("fact-"):
            self._cell = attrs["class"]
            self.cells[self._cell] = ""

    def handle_endtag(self, tag):
        if tag == "main":
            self.main -= 1
        if tag == "table" and self.facts:
            self.facts -= 1
        if tag == "td":
            self._cell = None

    def handle_data(self, data):
        if self.main:
            self.parts.append(data)
            if not self.facts:
                self.prose_parts.append(data)
            if self._cell:
                self.cells[self._cell] += data

    @property
    def text(self) -> str:
        return re.sub(r"\s+", " ", " ".join(self.parts)).strip()

    @property
    def prose(self) -> str:
        return re.sub(r"\s+", " ", " ".join(self.prose_parts)).strip()


def page(client, language: str, topic: str | None = None) -> ArticleText:
    prefix = "" if language == "en" else f"/{language}"
    url = f"{prefix}/rules/" + (f"{topic}/" if topic else "")
    response = client.get(url)
    assert response.status_code == 200, url
    parser = ArticleText()
    parser.feed(response.content.decode())
    return parser


def sentences(text: str) -> list[str]:
    return [s.strip() for s in re.split(r"(?<=[.!?:;])\s+", text) if len(s.strip()) > 25]


@pytest.mark.parametrize("language", LANGUAGES)
def test_index_lists_every_topic_with_a_picture(client, language):
    prefix = "" if language == "en" else f"/{language}"
    html = client.get(f"{prefix}/rules/").content.decode()
    for key in TOPIC_KEYS:
        assert f'href="{prefix}/rules/{key}/"' in html
    assert html.count('class="board board-') >= len(VARIANTS)


@pytest.mark.parametrize("topic", TOPIC_KEYS)
def test_every_topic_in_every_language_and_no_english_left(client, topic):
    english = page(client, "en", topic).text
    english_sentences = sentences(english)
    assert len(english_sentences) >= 3
    for language in LANGUAGES[1:]:
        text = page(client, language, topic).text
        assert text != english
        leftovers = [s for s in english_sentences if s in text]
        assert not leftovers, f"{language}/{topic} shows English: {leftovers[:3]}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_basics_page_has_the_seeds_key_terms(client, language):
    text = page(client, language, "basics").text
    missing = [term for term in KEY_TERMS[language] if term not in text]
    assert not missing, f"{language}: missing {missing}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_basics_links_every_variant_topic(client, language):
    prefix = "" if language == "en" else f"/{language}"
    html = client.get(f"{prefix}/rules/basics/").content.decode()
    article = html[html.index("<article") : html.index("</article>")]
    for key in VARIANTS:
        assert f'href="{prefix}/rules/{key}/"' in article


def size_text(variant) -> str:
    return (
        str(variant.cell_count)
        if variant.shape == "hexagon"
        else f"{variant.width}×{variant.height}"
    )


@pytest.mark.parametrize("key", [k for k in VARIANTS if k != "practice"])
@pytest.mark.parametrize("language", LANGUAGES)
def test_variant_page_numbers_agree_with_the_engine(client, language, key):
    variant = VARIANTS[key]
    parsed = page(client, language, key)
    facts = parsed.cells
    assert facts["fact-colors"].strip() == str(variant.colors)
    assert size_text(variant) in facts["fact-board"]
    assert str(variant.cell_count) in facts["fact-board"]
    assert re.search(rf"\b{variant.seats}\b", facts["fact-seats"])
    # The prose names the variant's own board and colour count ...
    prose = parsed.prose
    assert size_text(variant) in prose, (
        f"{language}/{key}: size {size_text(variant)} not in the text"
    )
    assert re.search(rf"\b{variant.colors}\b", prose), f"{language}/{key}: {variant.colors} colours"
    # ... and no other board size of the same shape unless it names that topic.
    for other in VARIANTS.values():
        if other.key in (key, "practice") or other.shape != variant.shape:
            continue
        if size_text(other) != size_text(variant) and size_text(other) in prose:
            assert str(TOPICS[other.key].name) in prose or other.key in ("big", "classic", "fast")


@pytest.mark.parametrize("language", LANGUAGES)
def test_rated_or_unrated_is_stated_right(client, language):
    for key, variant in VARIANTS.items():
        rating = page(client, language, key).cells["fact-rating"]
        if variant.rated_scale:
            assert str(TOPICS[key].name) in rating
        else:
            assert str(TOPICS[key].name) not in rating


def test_switcher_keeps_the_reader_on_the_topic(client):
    response = client.post("/i18n/setlang/", {"language": "el", "next": "/es/rules/hex/"})
    assert response["Location"] == "/el/rules/hex/"
    html = client.get("/bg/rules/pairs/").content.decode()
    for language in LANGUAGES:
        prefix = "" if language == "en" else f"/{language}"
        assert f'hreflang="{language}" href="http://testserver{prefix}/rules/pairs/"' in html


def test_unknown_topic_is_404(client):
    assert client.get("/rules/chess/").status_code == 404
    assert client.get("/es/rules/chess/").status_code == 404


def test_diagrams_have_text_alternatives_in_the_language(client):
    html = client.get("/es/rules/basics/").content.decode()
    titles = re.findall(r'<svg[^>]*aria-label="([^"]+)"', html)
    assert len(titles) >= 6
    english = re.findall(
        r'<svg[^>]*aria-label="([^"]+)"', client.get("/rules/basics/").content.decode()
    )
    assert not set(titles) & set(english)


def test_table_links_its_variant_topic(client, fast_table):
    html = client.get(f"/match/{fast_table.pk}/").content.decode()
    assert 'href="/rules/fast/"' in html


STALLING = {  # the stalling rule (SPEC §3) as each language's basics page says it
    "en": "twenty moves in a row take no cell",
    "bg": "двадесет поредни хода не вземат нито една клетка",
    "el": "είκοσι συνεχόμενες κινήσεις δεν πάρουν κανένα κελί",
    "pt": "vinte jogadas seguidas não conquistam nenhuma casa",
    "nl": "twintig zetten op rij geen enkel vakje opleveren",
    "es": "veinte jugadas seguidas no capturan ninguna casilla",
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_basics_page_states_the_stalling_rule(client, language):
    assert STALLING[language] in page(client, language, "basics").text
