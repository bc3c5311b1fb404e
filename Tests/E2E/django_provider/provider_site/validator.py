from oauth2_provider.oauth2_validators import OAuth2Validator


class Validator(OAuth2Validator):
    """Adds the standard profile and email claims to ID tokens (filtered by scope)."""

    def get_additional_claims(self, request):
        user = request.user
        return {
            "email": user.email,
            "email_verified": True,
            "name": user.get_full_name() or user.username,
            "preferred_username": user.username,
        }
