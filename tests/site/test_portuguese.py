"""Portuguese follows its seed, written in Brazilian Portuguese (issue 13.8): the basics page
carries every sentence of the seed's rules word for word, every other Portuguese text uses the
same variety, and the catalogue declares Brazil's plural rule."""

import html
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import translation
from django.utils.translation import ngettext

pytestmark = pytest.mark.django_db

ROOT = Path(settings.BASE_DIR)
CATALOGUE = ROOT / "locale" / "pt" / "LC_MESSAGES" / "django.po"
TEMPLATES = sorted((ROOT / "templates" / "rules" / "pt").glob("*.html"))

# The rules of the Portuguese seed (rules.pt.txt) after its title line, as its author wrote
# them; only the long lines are wrapped.
SEED_RULES = """\
Noções básicas

Filler é um jogo num tabuleiro de casas coloridas. Foi criado por Dmitri Pachkov: saiu para
MS-DOS pela Gamos em 1990, no Ocidente é conhecido como «7 Colors» e, em 1996, Aleksandr Vikulin
fez uma versão para Windows com um tabuleiro de hexágonos. Hoje ele é jogado no GamePigeon.

Objetivo

Cada jogador tem uma área — um grupo contínuo de casas que cresce a partir do seu canto do
tabuleiro. Vence quem tiver a área maior no fim da partida.

A jogada

Uma jogada é escolher uma cor. Toda a sua área é repintada nessa cor e incorpora todas as casas
livres vizinhas da mesma cor e, em seguida, as casas dessa cor que continuam a cadeia. As casas
do adversário nunca são conquistadas: o que é dele continua dele.

• Você não pode escolher a sua cor atual nem a cor atual do adversário.
• Uma jogada que não conquista nada é permitida. Às vezes ela é a melhor jogada: você ocupa uma
cor de que o adversário precisa, e ele não pode escolhê-la na jogada seguinte.
• Não é permitido passar a vez.

Com dois jogadores, o adversário não pode manter a mesma cor por duas jogadas seguidas, então
qualquer cor volta a ficar disponível no máximo uma jogada depois.

Regiões próprias

Se uma parte livre do tabuleiro faz fronteira apenas com a sua área, o adversário já não
consegue alcançá-la. Essa região passa a ser sua na hora, sem esperar jogadas. Isolar um pedaço
do tabuleiro do adversário é a principal forma de ganhar casas depressa.

Fim da partida e o equador

A partida termina assim que o líder tem mais casas do que o adversário conseguiria alcançar
mesmo no melhor dos casos: tudo o que o adversário já tem mais todas as regiões livres que ele
ainda pode alcançar. Uma partida decidida não é jogada até o fim. Com dois jogadores, isso
significa que o líder ultrapassou o equador — tem mais da metade do tabuleiro. Acima do
tabuleiro você vê quantas casas são necessárias para vencer, e para cada jogador aparece quanto
falta até o equador e quanto ele está à frente ou atrás do adversário.

A partida também termina quando não restam casas livres. Contagens iguais dão empate.

Um match no mesmo tabuleiro

As variantes com rating são jogadas como um match de duas partidas no mesmo tabuleiro: na
segunda partida os jogadores trocam de canto e o outro jogador começa. Isso anula a sorte da
distribuição das cores: cada um fica uma vez com o canto mais favorável. Entre as partidas, cada
jogador clica em «Pronto para a próxima partida».

• Uma partida vale 1 ponto pela vitória e ½ pelo empate.
• 2–0 ou 1½–½ vence o match.
• Em 1–1, vence quem tiver mais casas nas duas partidas somadas. Totais iguais deixam o match
empatado.

Jogar na mesa

Os botões de cor ficam abaixo do tabuleiro. Passe o cursor sobre um botão e o tabuleiro destaca
as casas que essa cor conquistaria, e a dica mostra quantas são. As cores proibidas aparecem
apagadas, e a dica explica o motivo. Pelo teclado, as teclas 1–9 escolhem uma cor. Se for
difícil distinguir as cores, ative os símbolos de cor nas «Opções» da mesa.

Tempo e desistência

O relógio funciona como no xadrez: uma reserva de tempo para todo o match mais um incremento por
jogada. Quem ficar sem tempo perde o match. O botão «Desistir da partida» entrega uma partida do
match — a seguinte é jogada mesmo assim; para desistir do match inteiro, use o botão habitual da
mesa.

Rating

O rating é calculado apenas pelo match, não por partidas isoladas. Uma vitória por 2–0 ou 1½–½ é
uma vitória completa; uma vitória em 1–1 pelo total de casas vale menos — 0,6 ponto contra 0,4.
As variantes Rápido 8×7, Clássico 15×15, Hexágonos 13×11, A quatro e Duplas têm rating próprio;
as outras variantes não valem rating.

Variantes

Todas as variantes seguem estas noções básicas; o que muda em cada uma está no seu próprio
tópico: rápido 8×7, clássico 15×15, hexágonos 13×11, Vinco, losangos, tabuleiro grande 21×21,
obstáculos e muros, casas valiosas e tintas, três pontos de partida, a quatro, duplas, treino.
"""

# Forms used in Portugal but not in Brazil, where the site's Portuguese comes from.
EUROPEAN_FORMS = {
    r"\bpalavras?-passe\b": "senha",
    r"\bequipas?\b": "equipe",
    r"\b(?:está|estão|estás|estamos|estou) a \w+(?:ar|er|ir)\b": "gerund: está jogando",
    r"\b(?:estás|tens|podes|queres|teu|tua|teus|tuas)\b": "você",
    r"\bregistos?\b": "registro",
    r"\becrãs?\b": "tela",
    r"\btelemóve(?:l|is)\b": "celular",
    r"\butilizador(?:es)?\b": "usuário",
    r"\baté ao\b": "até o",
    r"\bmais de metade\b": "mais da metade",
    r"\bdesforra\b": "revanche",
    r"\bà espera\b": "esperando, aguardando",
    r"\bfora de jogo\b": "fora do jogo",
    r"\bligaç(?:ão|ões)\b": "conexão",
    r"\bdefinições\b": "configurações",
    r"\b(?:iniciar|terminar) sessão\b": "entrar, sair",
    r"\bcinzent[oa]s?\b": "cinza",
    r"\bcorreu mal\b": "deu errado",
    r"\bponteiros do relógio\b": "sentido horário",
    r"\bgémeos?\b": "gêmeo",
    r"\b(?:joga|jogam|troca|trocam)-se\b": "é jogado, são trocados",
    r"\b\w+-(?:l[oa]s?|[oa]s?|lhes?)-(?:ia|iam|á|ão|ei|emos)\b": "no mesoclisis",
}


def words(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def seed_sentences() -> list[str]:
    """The seed's sentences. Paragraphs are separated by blank lines and list items start
    with "•" (long lines are wrapped above); headings, without a final stop, are left out."""
    sentences = []
    for block in SEED_RULES.split("\n\n"):
        for item in re.split(r"^•", block, flags=re.MULTILINE):
            item = words(item)
            if item and item[-1] in ".!?":
                sentences += re.split(r"(?<=[.!?])\s+", item)
    return sentences


def page_text(client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    content = response.content.decode()
    article = content[content.index("<article") : content.index("</article>")]
    return words(html.unescape(re.sub(r"<[^>]*>", "", article)))


def catalogue_translations() -> list[str]:
    """Every msgstr of the Portuguese catalogue, continuation lines joined."""
    found, current = [], None
    for line in CATALOGUE.read_text(encoding="utf-8").splitlines():
        if line.startswith("msgstr"):
            current = line.partition(" ")[2][1:-1]
            found.append(current)
        elif line.startswith('"') and current is not None:
            found[-1] += line[1:-1]
        else:
            current = None
    return [text for text in found[1:] if text]  # the first is the header


def european_forms(text: str) -> list[str]:
    return [
        match.group(0)
        for pattern in EUROPEAN_FORMS
        for match in re.finditer(pattern, text, flags=re.IGNORECASE)
    ]


def test_seed_is_split_into_its_sentences():
    sentences = seed_sentences()
    assert len(sentences) > 40
    assert "Hoje ele é jogado no GamePigeon." in sentences
    assert "Não é permitido passar a vez." in sentences
    assert "Noções básicas" not in sentences


def test_basics_page_has_every_sentence_of_the_seed_verbatim(client):
    text = page_text(client, "/pt/rules/basics/")
    missing = [sentence for sentence in seed_sentences() if sentence not in text]
    assert not missing, f"{len(missing)} seed sentences not on the page: {missing[:3]}"


def test_the_check_finds_european_forms():
    for sample in [
        "A sua palavra-passe",
        "Está a assistir.",
        "Duas equipas de dois",
        "não é jogada até ao fim",
        "Nos registos",
        "No ecrã do telemóvel",
        "O utilizador",
        "joga-se na mesma",
        "B deixá-la-ia a A",
    ]:
        assert european_forms(sample), sample
    for sample in [
        "Você está assistindo.",
        "Essa região passa a ser sua na hora.",
        "Uma partida decidida não é jogada até o fim.",
        "Cadastrar-se",
    ]:
        assert not european_forms(sample), sample


def test_catalogue_is_brazilian():
    found = {form: text for text in catalogue_translations() for form in european_forms(text)}
    assert not found, found


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda path: path.name)
def test_rules_pages_are_brazilian(template):
    found = european_forms(template.read_text(encoding="utf-8"))
    assert not found, f"{template.name}: {found}"


def test_catalogue_declares_brazil_and_its_plural_rule():
    header = CATALOGUE.read_text(encoding="utf-8").split("\n\n", 1)[0]
    assert "Language-Team: Portuguese (Brazil)" in header
    assert "Plural-Forms: nplurals=2; plural=(n > 1);" in header
    # In Brazil, zero takes the singular.
    with translation.override("pt"):
        assert ngettext("%(n)s cell", "%(n)s cells", 0) == "%(n)s casa"
        assert ngettext("%(n)s cell", "%(n)s cells", 2) == "%(n)s casas"
