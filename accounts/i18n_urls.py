from django.urls import path

from accounts import views

urlpatterns = [path("setlang/", views.language_set, name="language_set")]
