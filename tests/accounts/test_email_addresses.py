"""E-mail addresses: a verified address belongs to one member whatever its case, and
signing up with another member's address makes no second account."""

import pytest
from allauth.account.models import EmailAddress
from django.db import IntegrityError, transaction
from django.test import Client

from accounts.models import User
from tests.accounts.test_member_names import sign_up

pytestmark = pytest.mark.django_db


def test_another_members_address_in_another_case_makes_no_second_account(
    client, make_member, password, mailoutbox
):
    make_member("alice")
    fresh = sign_up(Client(), "newcomer", "newcomer@example.com", password)
    mailoutbox.clear()
    response = sign_up(client, "alicia", "ALICE@Example.com", password)
    # Answered as any sign-up is (nobody learns the address is taken)...
    assert response.status_code == 302 and response["Location"] == fresh["Location"]
    # ... but no account, and the owner of the address is the one told.
    assert not User.objects.filter(username="alicia").exists()
    assert EmailAddress.objects.filter(email__iexact="alice@example.com").count() == 1
    [told] = mailoutbox
    assert told.to == ["alice@example.com"]
    assert "already exists" in told.body and "confirm-email" not in told.body


def test_a_verified_address_belongs_to_one_member_whatever_its_case(make_member):
    make_member("alice")
    bob = make_member("bob")
    with pytest.raises(IntegrityError), transaction.atomic():
        EmailAddress.objects.create(user=bob, email="ALICE@Example.com", verified=True)
    # The index covers verified addresses only: claiming one (not yet proven) is allowed.
    EmailAddress.objects.create(user=bob, email="ALICE@Example.com", verified=False)
    assert EmailAddress.objects.filter(email__iexact="alice@example.com").count() == 2
