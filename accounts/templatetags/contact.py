"""``{% contact_link as address %}``: the site's contact address (``CONTACT_EMAIL``) as a
mailto link, for the sentences that ask a member to write to us. An address rather than a
contact page: these sentences are read by someone whose mail or password failed, who may
not be able to log in."""

from django import template
from django.conf import settings
from django.utils.html import format_html

register = template.Library()


@register.simple_tag
def contact_link() -> str:
    return format_html('<a class="contact" href="mailto:{0}">{0}</a>', settings.CONTACT_EMAIL)
