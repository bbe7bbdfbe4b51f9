"""The tool's signing keys: RSA, made once and kept in the LTI store (never printed), the newest
signing; :func:`rotate` makes a new one by a new ``kid`` while the one before stays in the JWKS."""

from __future__ import annotations

import secrets
import time
from typing import Any

import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from jwt.algorithms import RSAAlgorithm

from attn_tutor.sessions.lti import LtiStore

KEY_BITS = 2048


def rotate(store: LtiStore) -> str:
    """A new key made and kept as the one that signs; its ``kid``."""
    key = rsa.generate_private_key(public_exponent=65537, key_size=KEY_BITS)
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    kid = secrets.token_urlsafe(12)
    store.add_key(kid, pem.decode("ascii"))
    return kid


def ensure_key(store: LtiStore) -> str:
    """The ``kid`` of the key that signs, made now if the store has none yet."""
    for kid, _pem, active in store.keys():
        if active:
            return kid
    return rotate(store)


def public_jwks(store: LtiStore) -> dict[str, Any]:
    """The JWKS the platforms read (``GET /lti/jwks``): every kept key's public half, by its ``kid``."""
    keys = []
    for kid, pem, _active in store.keys():
        private = serialization.load_pem_private_key(pem.encode("ascii"), password=None)
        assert isinstance(private, rsa.RSAPrivateKey)
        jwk: dict[str, Any] = dict(RSAAlgorithm.to_jwk(private.public_key(), as_dict=True))
        jwk.update(kid=kid, alg="RS256", use="sig")
        keys.append(jwk)
    return {"keys": keys}


def sign(store: LtiStore, claims: dict[str, Any], *, life: float = 300.0) -> str:
    """``claims`` as a JWT signed by the active key (RS256, its ``kid`` in the header), with ``iat``,
    ``exp`` (``life`` seconds on) and a ``jti``."""
    kid = ensure_key(store)
    pem = next(pem for k, pem, _active in store.keys() if k == kid)
    now = int(time.time())
    payload = {"iat": now, "exp": now + int(life), "jti": secrets.token_urlsafe(16), **claims}
    return jwt.encode(payload, pem, algorithm="RS256", headers={"kid": kid})
