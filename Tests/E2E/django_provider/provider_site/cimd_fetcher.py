"""django-oauth-toolkit's client ID metadata document fetcher, swapped (its documented
`CIMD_METADATA_FETCHER` setting) for the resource test: the test has no https host to serve
the document from, so the document of the one URL in E2E_CIMD_URL is read from the file
E2E_CIMD_DOCUMENT. Everything after the fetch — the document's checks, the client it makes —
is DOT's own."""
import json
import os

from oauth2_provider.cimd import CIMDError


class FileMetadataFetcher:
    def fetch(self, client_id):
        if client_id != os.environ.get("E2E_CIMD_URL"):
            raise CIMDError("the test serves one client ID metadata document only")
        with open(os.environ["E2E_CIMD_DOCUMENT"]) as handle:
            return json.load(handle), 300
