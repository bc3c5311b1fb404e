import json

from django.contrib.auth import views as auth_views
from django.http import JsonResponse
from django.urls import include, path, reverse
from oauth2_provider.views.metadata import OAuthServerMetadataView
from oauth2_provider.views.oidc import ConnectDiscoveryInfoView


class Discovery(ConnectDiscoveryInfoView):
    """DOT's discovery document plus its RFC 7009 revocation endpoint, which DOT serves
    but does not advertise."""

    def get(self, request, *args, **kwargs):
        document = json.loads(super().get(request, *args, **kwargs).content)
        document["revocation_endpoint"] = request.build_absolute_uri(reverse("oauth2_provider:revoke-token"))
        return JsonResponse(document)


urlpatterns = [
    # RFC 8414 §3.1: the metadata of the issuer http://HOST/o at the host's root, the issuer's
    # path after the well-known part.
    path(".well-known/oauth-authorization-server/<path:issuer_path>", OAuthServerMetadataView.as_view()),
    path("o/.well-known/openid-configuration", Discovery.as_view()),
    path("o/", include("oauth2_provider.urls", namespace="oauth2_provider")),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
]
