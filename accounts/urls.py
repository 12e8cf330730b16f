from django.urls import path

from accounts import views

urlpatterns = [
    path("account/preferences/", views.preferences, name="account_preferences"),
    path("account/delete/", views.account_delete, name="account_delete"),
    path("account/preference/", views.preference_set, name="preference_set"),
    path("account/theme/", views.theme_set, name="theme_set"),
    path("dev/mail/", views.local_mailbox, name="local_mailbox"),
]
