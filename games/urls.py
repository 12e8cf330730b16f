from django.urls import path

import config.converters  # noqa: F401 (the "id" converter)
from games import views

urlpatterns = [
    path("match/<id:match_id>/", views.table, name="table"),
    path("t/<str:token>/", views.table_private, name="table_private"),
    path("match/<id:match_id>/steps/", views.steps, name="table_steps"),
    path("t/<str:token>/steps/", views.steps, name="table_private_steps"),
    path("match/<id:match_id>/record.txt", views.record, name="table_record"),
    path("t/<str:token>/record.txt", views.record, name="table_private_record"),
    path("match/<id:match_id>/analysis/", views.analysis, name="table_analysis"),
    path("t/<str:token>/analysis/", views.analysis, name="table_private_analysis"),
    path("match/<id:match_id>/analysis/try/", views.analysis_try, name="table_analysis_try"),
    path("t/<str:token>/analysis/try/", views.analysis_try, name="table_private_analysis_try"),
    path("tv/", views.tv, name="tv"),
    path("tv/board/", views.tv_board, name="tv_board"),
    path("rules/", views.rules_index, name="rules_index"),
    path("rules/<slug:topic>/", views.rules_topic, name="rules_topic"),
]
