"""Creates the test user and a public PKCE client; prints the client id."""
import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "provider_site.settings")
django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from oauth2_provider.models import Application  # noqa: E402

user = get_user_model().objects.create_user(
    "ada", email="ada@example.com", password=os.environ["E2E_PASSWORD"], first_name="Ada", last_name="Lovelace"
)
application = Application.objects.create(
    name="authctl",
    user=user,
    client_type=Application.CLIENT_PUBLIC,
    authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE,
    # RFC 8252 §7.3: DOT accepts any port on a registered loopback IP redirect URI.
    redirect_uris="http://127.0.0.1/callback",
    algorithm=Application.RS256_ALGORITHM,
    skip_authorization=True,
)
print(application.client_id)
