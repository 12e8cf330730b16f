from django.urls import path

import config.converters  # noqa: F401 (the "id" converter)
from accounts import views

urlpatterns = [
    path("account/preferences/", views.preferences, name="account_preferences"),
    path("account/delete/", views.account_delete, name="account_delete"),
    path("account/tokens/", views.tokens, name="account_tokens"),
    path("account/tokens/<id:token_id>/revoke/", views.token_revoke, name="account_token_revoke"),
    path("account/preference/", views.preference_set, name="preference_set"),
    path("account/theme/", views.theme_set, name="theme_set"),
    path("dev/mail/", views.local_mailbox, name="local_mailbox"),
    # Beside the member's page (``lobby``'s ``/@/<username>/``).
    path("@/<str:username>/follow/", views.follow, name="follow"),
    path("@/<str:username>/unfollow/", views.unfollow, name="unfollow"),
    path("@/<str:username>/block/", views.block, name="block"),
    path("@/<str:username>/unblock/", views.unblock, name="unblock"),
]
