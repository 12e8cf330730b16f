"""Ids in addresses that are not ASCII digits, or do not fit a database id, answer 404
(JSON for the API) and never an error page (SPEC §9)."""

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "path",
    [
        "/api/matches/%C2%B2/",  # ² is a digit to str.isdigit, not to int()
        "/api/matches/" + "9" * 5000 + "/",  # beyond int()'s digits and any database id
        "/api/matches/" + "9" * 30 + "/",
        "/api/matches/" + "9" * 18 + "/",  # the largest id that fits: simply no such match
    ],
)
def test_api_ids_that_are_not_ascii_digits_answer_404_in_json(path):
    response = Client(raise_request_exception=False).get(path)
    assert response.status_code == 404
    assert response.json()["error"] == "not_found"


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "/match/%C2%B2/"),
        ("get", "/match/" + "9" * 30 + "/"),
        ("get", "/match/" + "9" * 5000 + "/"),
        ("get", "/match/" + "9" * 30 + "/record.txt"),
        ("get", "/match/" + "9" * 18 + "/"),
        ("post", "/tables/" + "9" * 30 + "/join/"),
        ("post", "/challenges/" + "9" * 30 + "/accept/"),
    ],
)
def test_page_ids_that_do_not_fit_answer_404(make_member, method, path):
    client = Client(raise_request_exception=False)
    client.force_login(make_member("ann"))
    assert getattr(client, method)(path).status_code == 404
