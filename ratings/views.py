from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def leaderboards(request: HttpRequest) -> HttpResponse:
    return render(request, "ratings/leaderboards.html")
