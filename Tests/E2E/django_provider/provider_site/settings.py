"""A minimal OpenID provider for authctl's end-to-end test: django-oauth-toolkit with OIDC.

Everything secret (Django's secret key, the RS256 signing key, the user's password) is
generated at test time into E2E_STATE_DIR; nothing secret is committed.
"""
import os
from pathlib import Path

STATE = Path(os.environ["E2E_STATE_DIR"])
SECRET_KEY = (STATE / "django-secret").read_text()
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1"]
USE_TZ = True

INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "oauth2_provider",
    "provider_site",
]
MIDDLEWARE = [
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
]
ROOT_URLCONF = "provider_site.urls"
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "APP_DIRS": True,
        "OPTIONS": {"context_processors": ["django.template.context_processors.request"]},
    }
]
DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": str(STATE / "db.sqlite3")}}
DEFAULT_AUTO_FIELD = "django.db.models.AutoField"
LOGIN_URL = "/accounts/login/"

OAUTH2_PROVIDER = {
    "OIDC_ENABLED": True,
    "OIDC_RSA_PRIVATE_KEY": (STATE / "oidc-key.pem").read_text(),
    "PKCE_REQUIRED": True,
    "ALLOWED_CODE_CHALLENGE_METHODS": ["S256"],
    # RFC 9207: `iss` on the authorization response, advertised in discovery.
    "COMPLIANT_BCP_RFC9700_AUTHZ_RESPONSE_ISS": True,
    "ROTATE_REFRESH_TOKEN": True,
    "ACCESS_TOKEN_EXPIRE_SECONDS": 3600,
    "SCOPES": {"openid": "OpenID Connect", "profile": "Profile", "email": "Email"},
    "OAUTH2_VALIDATOR_CLASS": "provider_site.validator.Validator",
}

# The resource tests (run-resource-e2e.sh, docs/resources.md): the issuer fixed (so that RFC 8414
# metadata, RFC 9207 `iss` and OpenID discovery name the same one), open dynamic client
# registration (RFC 7591), and the scopes of the test's protected resource.
if os.environ.get("E2E_ISSUER"):
    OAUTH2_PROVIDER.update(
        {
            "OIDC_ISS_ENDPOINT": os.environ["E2E_ISSUER"],
            "DCR_ENABLED": True,
            "DCR_REGISTRATION_PERMISSION_CLASSES": ("oauth2_provider.dcr.AllowAllDCRPermission",),
            "SCOPES": dict(OAUTH2_PROVIDER["SCOPES"], read="Read the data", write="Change the data", introspection="Introspect"),
            # Client ID metadata documents, fetched from a file (cimd_fetcher.py: no https host here).
            "CIMD_ENABLED": True,
            "CIMD_METADATA_FETCHER": "provider_site.cimd_fetcher.FileMetadataFetcher",
        }
    )
