"""``ratings`` keeps its own list of rated scales (it must not import ``games``): it agrees
with the engine's variants, their rated scales and their names, in every language."""

import pytest
from django.conf import settings
from django.utils import translation

from games.engine import VARIANTS
from games.topics import variant_name
from ratings.models import Scale


def test_the_scales_are_the_rated_variants_scales():
    rated = [v.rated_scale for v in VARIANTS.values() if v.rated_scale]
    assert [scale.value for scale in Scale] == rated
    assert all(VARIANTS[scale.value].rated_scale == scale.value for scale in Scale)


@pytest.mark.parametrize("language", [code for code, _ in settings.LANGUAGES])
def test_a_scale_is_named_as_its_variant(language):
    with translation.override(language):
        assert [str(scale.label) for scale in Scale] == [
            str(variant_name(scale.value)) for scale in Scale
        ]
