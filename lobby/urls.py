from django.urls import path, re_path

import config.converters  # noqa: F401 (the "id" converter)
from lobby import api, arena_views, bot_api, bot_streams, report_views, views

urlpatterns = [
    path("", views.home, name="home"),
    path("lobby/lists/", views.lists, name="lobby_lists"),
    path("tables/", views.table_create, name="table_create"),
    path("tables/<id:match_id>/join/", views.table_join, name="table_join"),
    path("tables/<id:match_id>/leave/", views.table_leave, name="table_leave"),
    path("tables/<id:match_id>/cancel/", views.table_cancel, name="table_cancel"),
    path("t/<str:token>/join/", views.private_join, name="private_join"),
    path("t/<str:token>/leave/", views.private_leave, name="private_leave"),
    path("t/<str:token>/cancel/", views.private_cancel, name="private_cancel"),
    path("play/<str:variant>/", views.play_now, name="play_now"),
    path("practice/", views.practice, name="practice"),
    path("tables/<id:match_id>/bots/", views.table_bots, name="table_bots"),
    path("t/<str:token>/bots/", views.private_bots, name="private_bots"),
    path("members/", views.members, name="members"),
    path("@/<str:username>/", views.profile, name="profile"),
    path("@/<str:username>/challenge/", views.challenge, name="challenge"),
    path("@/<str:username>/report/", report_views.report, name="report"),
    path("challenges/<id:challenge_id>/accept/", views.challenge_accept, name="challenge_accept"),
    path(
        "challenges/<id:challenge_id>/decline/", views.challenge_decline, name="challenge_decline"
    ),
    path("challenges/<id:challenge_id>/cancel/", views.challenge_cancel, name="challenge_cancel"),
    path("arenas/", arena_views.arenas, name="arenas"),
    path("arenas/<id:arena_id>/", arena_views.arena, name="arena"),
    path("arenas/<id:arena_id>/standings/", arena_views.standings, name="arena_standings"),
    path("arenas/<id:arena_id>/join/", arena_views.join, name="arena_join"),
    path("arenas/<id:arena_id>/withdraw/", arena_views.withdraw, name="arena_withdraw"),
    path("developers/", views.developers, name="developers"),
    path("developers/bot_client.py", views.developers_client, name="developers_client"),
    path("api/variants/", api.variants, name="api_variants"),
    path("api/tables/", api.tables, name="api_tables"),
    path("api/matches/<str:key>/", api.match, name="api_match"),
    path("api/users/<str:username>/", api.user, name="api_user"),
    path("api/arenas/", api.arenas, name="api_arenas"),
    path("api/arenas/<id:arena_id>/", api.arena, name="api_arena"),
    # Programs that play (SPEC §15, docs/bot-api.md).
    path("bots/", views.bots, name="bots"),
    path("api/bot/account/upgrade", bot_api.account_upgrade, name="api_bot_upgrade"),
    path("api/stream/event", bot_streams.event_stream, name="api_event_stream"),
    path("api/bot/match/<id:match_id>/stream", bot_streams.match_stream, name="api_match_stream"),
    path("api/bot/match/<id:match_id>/move/<str:colour>", bot_api.move, name="api_bot_move"),
    path("api/bot/match/<id:match_id>/ready", bot_api.ready, name="api_bot_ready"),
    path("api/bot/match/<id:match_id>/resign", bot_api.resign, name="api_bot_resign"),
    path("api/bot/match/<id:match_id>/abort", bot_api.abort, name="api_bot_abort"),
    path("api/bot/match/<id:match_id>/claim", bot_api.claim, name="api_bot_claim"),
    path("api/bot/match/<id:match_id>/chat", bot_api.chat, name="api_bot_chat"),
    path("api/challenge/<id:challenge_id>/accept", bot_api.challenge_accept, name="api_accept"),
    path("api/challenge/<id:challenge_id>/decline", bot_api.challenge_decline, name="api_decline"),
    path("api/challenge/<id:challenge_id>/cancel", bot_api.challenge_cancel, name="api_cancel"),
    path("api/challenge/<str:username>", bot_api.challenge_create, name="api_challenge"),
    # Last: any other path under api/ answers a JSON 404 (lobby.api.unknown).
    re_path(r"^api/", api.unknown, name="api_unknown"),
]
