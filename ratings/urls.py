from django.urls import path

from ratings import views

urlpatterns = [
    path("leaderboards/", views.leaderboards, name="leaderboards"),
    path("leaderboard/<str:scale>/", views.leaderboard, name="leaderboard"),
]
