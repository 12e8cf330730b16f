from django.urls import path

from lobby import views

urlpatterns = [
    path("", views.home, name="home"),
    path("@/<str:username>/", views.profile, name="profile"),
]
