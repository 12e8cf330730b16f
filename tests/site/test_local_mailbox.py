"""The local mailbox (``/dev/mail/``, ``LOCAL_MAILBOX``) answers this machine only, and
only when it is on."""

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_the_local_mailbox_answers_this_machine_only_and_only_when_on(settings, tmp_path):
    settings.LOCAL_MAILBOX = True
    settings.EMAIL_FILE_PATH = str(tmp_path)
    (tmp_path / "20261129-120000-1.log").write_text(
        "Subject: Confirm\n\nhttp://testserver/accounts/confirm-email/SECRETKEY/\n"
    )
    for address in ("127.0.0.1", "::1"):
        response = Client(REMOTE_ADDR=address).get("/dev/mail/")
        assert response.status_code == 200
        assert "confirm-email/SECRETKEY/" in response.content.decode()
    response = Client(REMOTE_ADDR="203.0.113.9").get("/dev/mail/")
    assert response.status_code == 404
    assert "SECRETKEY" not in response.content.decode()
    settings.LOCAL_MAILBOX = False
    assert Client(REMOTE_ADDR="127.0.0.1").get("/dev/mail/").status_code == 404
