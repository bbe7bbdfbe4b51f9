"""The LTI 1.3 tool (``serve --lti``): a course's LMS (Canvas, Moodle) launches the live class.

By job: :mod:`.keys` (the tool's RSA keys, kept in the LTI store, its public JWKS, what it signs),
:mod:`.tokens` (a platform's ``id_token`` verified against its JWKS, fetched off the event loop),
:mod:`.app` (the routes: OIDC login, launch, deep linking, JWKS; and one live class a resource
link, chosen by a cookie). docs/lti.md says how it works and how to register it.
"""
