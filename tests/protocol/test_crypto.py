"""protocol/crypto.py: fixed vectors (a change of algorithm must fail loudly), domain separation,
copy-commit, reveals, chance outcomes (determinism, sensitivity, rough uniformity, no coalition
short of all), per-match secrets and signatures."""

from __future__ import annotations

import hashlib
import hmac
import random
from collections import Counter

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from engine.core import ChanceEvent, Visibility
from engine.stream import SAMPLER_VERSION
from protocol.crypto import (
    SAMPLER,
    H,
    SeatSecrets,
    chance_commitment,
    chance_outcome,
    chance_outcome_bytes,
    chance_set_digest,
    check_chance_reveal,
    check_reveal,
    commit_set_digest,
    fingerprint,
    play_commitment,
    public_key_bytes,
    sealed_commitment,
    sealed_set_digest,
    sign,
    verify,
)
from protocol.errors import BadMessage, LocalProtocolError

# Fixed inputs of the vectors: every byte string is one byte repeated 32 times.
MATCH = bytes([0x11]) * 32
KEY = bytes([0x22]) * 32
SALT = bytes([0x33]) * 32
SEED = bytes([0x44]) * 32
STEP = "L2.R3.play"
ACTION = "play 4"
SECRETS = [bytes([1]) * 32, bytes([2]) * 32, bytes([3]) * 32]
TEST_DOMAIN = "cryptcrawl/test/v1"

FIVE = ChanceEvent("L2.level", ("a", "b", "c", "d", "e"), Visibility.PUBLIC)


def rng_bytes(rng: random.Random, n: int = 32) -> bytes:
    return rng.randbytes(n)


# --------------------------------------------------------------------------- fixed vectors


def test_h_vectors() -> None:
    assert H(TEST_DOMAIN).hex() == (
        "551da3656c518c2da276b26f8e581256db2042efaa63ddd16df7196066c8b083")
    assert H(TEST_DOMAIN, b"\x00\x01", "é", 7).hex() == (
        "881315150258817193b20d60fc45b9dc8ff06679636a6b1ce37d4a1f58affc58")


def test_h_is_the_documented_construction() -> None:
    """Recomputed by hand: 4-byte big-endian lengths, UTF-8 strings, 8-byte unsigned ints."""
    def lp(data: bytes) -> bytes:
        return len(data).to_bytes(4, "big") + data

    expected = hashlib.sha256(lp(TEST_DOMAIN.encode()) + lp(b"\x00\x01") + lp("é".encode())
                              + lp((7).to_bytes(8, "big"))).digest()
    assert H(TEST_DOMAIN, b"\x00\x01", "é", 7) == expected
    # Parts and domains of 256 bytes and more have their length written out too.
    domain, long = "cryptcrawl/" + "x" * 300 + "/v1", bytes(range(256)) * 2
    assert H(domain, long, "é" * 200) == hashlib.sha256(
        lp(domain.encode()) + lp(long) + lp(("é" * 200).encode())).digest()


def test_commitment_vectors() -> None:
    commitment = play_commitment(MATCH, STEP, KEY, ACTION, SALT)
    assert commitment.hex() == (
        "9bf42ab881f4e441bc9323760f9bfdf3ad83765609e5a72977365d5166db5af4")
    assert commit_set_digest(MATCH, STEP, [commitment, None]).hex() == (
        "b3d46f91967610f8c9a89c3ab081b9cfdb53dc7c28183395b3449c73792eeeda")
    assert chance_commitment(MATCH, "L2.level", KEY, SALT).hex() == (
        "17d5ab1e7840613f0f3b8db7c3664d2343e42e558b27149224c461bd82ec2591")
    assert chance_set_digest(MATCH, 2, [("L2.level", 1, bytes([5]) * 32),
                                        ("L2.R1", 0, bytes([6]) * 32)]).hex() == (
        "9cc3c0ddcc5b9541a3dc9af7549c7913dd003e2812ff54ed588cc0253a08a991")


def test_sealed_value_and_pool_vectors() -> None:
    """protocol.md §7.11–§7.12 and §11: a sealed commitment, a play commitment covering it, a
    sealed value's salt, and a die drawn from a pool slot."""
    def lp(data: bytes) -> bytes:
        return len(data).to_bytes(4, "big") + data

    sealed = sealed_commitment(MATCH, "tok.0.1", KEY, "troll", SALT)
    assert sealed == hashlib.sha256(lp(b"cryptcrawl/sealed/v2") + lp(MATCH) + lp(b"tok.0.1")
                                    + lp(KEY) + lp(b"troll") + lp(SALT)).digest()
    assert sealed.hex() == "f8ae1d06a291b217a57f6292e6e84e8afccae7d19d089e9b00d632f361ff09c0"
    covered = sealed_set_digest([("tok.0.1", sealed)])
    assert covered == hashlib.sha256(lp(b"cryptcrawl/sealed-set/v2") + lp((1).to_bytes(8, "big"))
                                     + lp(b"tok.0.1") + lp(sealed)).digest()
    assert play_commitment(MATCH, "setup.place.1", KEY, "place 3", SALT,
                           [("tok.0.1", sealed)]).hex() == (
        "f7cdd0ddb51e3895340c4d3e675aeaa886a282b21335904ed9f925fd33c1fabf")
    assert SeatSecrets(SEED, MATCH, KEY).sealed_salt("tok.0.1").hex() == (
        "55069ee63dac4cdbb0a50263625b718671cc366c7c7efd422e7481e9c5636562")
    assert chance_outcome_bytes("pool.0/d1.1", SECRETS).hex() == (
        "ab59860bf3f9d229dfdbf25070f3cea561b11c4d84fc1f8da5ad3f7999c174e2")
    die = ChanceEvent("pool.0/d1.1", ("1", "2", "3", "4", "5", "6"), Visibility.PUBLIC)
    assert chance_outcome(die, SECRETS) == "2"


def test_chance_outcome_vectors() -> None:
    assert chance_outcome_bytes("L2.level", SECRETS).hex() == (
        "3f99b78416ab82fc6a6113b289fc88eaf3228f034e4be3737fe872a775c1bbb5")
    assert chance_outcome(FIVE, SECRETS) == "c"
    assert SAMPLER == SAMPLER_VERSION == "sha256-ctr/v1"


def test_hkdf_vectors() -> None:
    secrets = SeatSecrets(SEED, MATCH, KEY)
    assert secrets.salt_for(STEP).hex() == (
        "9e8b44160b8cda0540bdae23c19d56e64ce3ae99bdd657d83aedc77512a75316")
    assert secrets.chance_secret("L2.level").hex() == (
        "79b1c20377eb6ff50cfd9c8716592b133a5265404179e90454116a9aaf8cee1f")


def test_hkdf_is_rfc5869_with_the_documented_info() -> None:
    """Recomputed with hmac alone: salt = match id, ikm = seed, info = length-prefixed
    (domain, seat key, label), one 32-byte block."""
    def lp(data: bytes) -> bytes:
        return len(data).to_bytes(4, "big") + data

    prk = hmac.new(MATCH, SEED, hashlib.sha256).digest()
    info = lp(b"cryptcrawl/salt/v1") + lp(KEY) + lp(STEP.encode())
    okm = hmac.new(prk, info + b"\x01", hashlib.sha256).digest()
    assert SeatSecrets(SEED, MATCH, KEY).salt_for(STEP) == okm


def test_identity_vectors() -> None:
    private = Ed25519PrivateKey.from_private_bytes(bytes([0x55]) * 32)
    public = public_key_bytes(private)
    assert public.hex() == "c6822637c7d310ec57627be00ba259d253749f4aaf644470cffbe53a35f73242"
    assert fingerprint(public) == "1ca5-6812-228b-74c9-1723"
    signature = sign(private, TEST_DOMAIN, b"payload")
    assert signature.hex() == (
        "2982988751601ba1473b764842a3af18af46e2065059fdc8972c931fa560bb1a"
        "18ab6bf7e2b9630217a85cdac50fe9882276e0c4bb0d6238dcf2f2ae5b303a05")
    # the signed bytes are the domain, a zero byte and the payload
    public_key = private.public_key()
    public_key.verify(signature, TEST_DOMAIN.encode() + b"\x00" + b"payload")


# --------------------------------------------------------------------------- the hash


def test_length_prefixing_prevents_ambiguity() -> None:
    assert H(TEST_DOMAIN, "ab", "c") != H(TEST_DOMAIN, "a", "bc")
    assert H(TEST_DOMAIN, b"ab", b"") != H(TEST_DOMAIN, b"a", b"b")
    assert H(TEST_DOMAIN, "x") != H(TEST_DOMAIN, "x", "")
    assert H("cryptcrawl/a/v1", "b") != H("cryptcrawl/a/b/v1")


def test_domains_separate() -> None:
    assert H("cryptcrawl/one/v1", b"x") != H("cryptcrawl/two/v1", b"x")
    assert H("cryptcrawl/one/v1", b"x") != H("cryptcrawl/one/v2", b"x")
    assert (play_commitment(MATCH, STEP, KEY, ACTION, SALT)
            != chance_commitment(MATCH, STEP, KEY, SALT))


@pytest.mark.parametrize("domain", ["", "cryptcrawl/x", "other/x/v1", "cryptcrawl/x/v0",
                                    "cryptcrawl/x/v1\x00", "cryptcrawl//v1", "Cryptcrawl/x/v1"])
def test_bad_domain_is_a_local_error(domain: str) -> None:
    with pytest.raises(LocalProtocolError, match="domain"):
        H(domain)
    private = Ed25519PrivateKey.generate()
    with pytest.raises(LocalProtocolError, match="domain"):
        sign(private, domain, b"")


def test_int_parts() -> None:
    assert H(TEST_DOMAIN, 0) == H(TEST_DOMAIN, bytes(8))
    assert H(TEST_DOMAIN, 2**64 - 1) == H(TEST_DOMAIN, b"\xff" * 8)
    with pytest.raises(BadMessage, match="outside"):
        H(TEST_DOMAIN, -1)
    with pytest.raises(BadMessage, match="outside"):
        H(TEST_DOMAIN, 2**64)
    for bad in (True, 1.5, [b"x"], None):
        with pytest.raises(LocalProtocolError):
            H(TEST_DOMAIN, bad)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- plays


def test_reveal_opens_its_commitment() -> None:
    commitment = play_commitment(MATCH, STEP, KEY, ACTION, SALT)
    check_reveal(commitment, MATCH, STEP, KEY, ACTION, SALT)


def test_copy_commit_cannot_be_opened_by_the_copier() -> None:
    """Seat B copies A's commitment and later A's reveal: the commitment binds A's key, so B's
    copy (checked against B's key) never opens."""
    rng = random.Random(1)
    key_a, key_b = rng_bytes(rng), rng_bytes(rng)
    commitment_a = play_commitment(MATCH, STEP, key_a, ACTION, SALT)
    assert play_commitment(MATCH, STEP, key_b, ACTION, SALT) != commitment_a
    with pytest.raises(BadMessage, match="does not open"):
        check_reveal(commitment_a, MATCH, STEP, key_b, ACTION, SALT)


@pytest.mark.parametrize("field", ["match", "step", "key", "action", "salt"])
def test_a_reveal_with_any_other_field_fails(field: str) -> None:
    commitment = play_commitment(MATCH, STEP, KEY, ACTION, SALT)
    args = {"match_id": MATCH, "step": STEP, "seat_key": KEY, "action": ACTION, "salt": SALT}
    changed = {"match": ("match_id", bytes(32)), "step": ("step", "L2.R4.play"),
               "key": ("seat_key", bytes(32)), "action": ("action", "play 5"),
               "salt": ("salt", SALT[:-1] + b"\x00")}[field]
    args[changed[0]] = changed[1]
    with pytest.raises(BadMessage):
        check_reveal(commitment, **args)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [
    {"match_id": bytes(31)}, {"seat_key": bytes(33)}, {"salt": b""}, {"salt": "x" * 32},
    {"step": b"L2"}, {"action": 4},
])
def test_wrong_sized_or_typed_fields_are_bad_messages(bad: dict[str, object]) -> None:
    args: dict[str, object] = {"match_id": MATCH, "step": STEP, "seat_key": KEY,
                               "action": ACTION, "salt": SALT}
    args.update(bad)
    with pytest.raises(BadMessage):
        play_commitment(**args)  # type: ignore[arg-type]
    with pytest.raises(BadMessage):
        check_reveal(bytes(32), **args)  # type: ignore[arg-type]
    with pytest.raises(BadMessage, match="32 bytes"):
        check_reveal(bytes(31), MATCH, STEP, KEY, ACTION, SALT)


def test_commit_set_digest() -> None:
    c0 = play_commitment(MATCH, STEP, KEY, ACTION, SALT)
    c1 = play_commitment(MATCH, STEP, bytes(32), ACTION, SALT)
    base = commit_set_digest(MATCH, STEP, [c0, c1, None])
    assert commit_set_digest(MATCH, STEP, (c0, c1, None)) == base
    assert commit_set_digest(MATCH, STEP, [c1, c0, None]) != base  # seat order matters
    assert commit_set_digest(MATCH, STEP, [c0, c1]) != base  # the count is covered
    assert commit_set_digest(MATCH, "L2.R4.play", [c0, c1, None]) != base
    assert commit_set_digest(bytes(32), STEP, [c0, c1, None]) != base
    # a missing seat is 32 zero bytes
    assert commit_set_digest(MATCH, STEP, [None]) == H(
        "cryptcrawl/commit-set/v1", MATCH, STEP, 1, bytes(32))
    with pytest.raises(BadMessage, match="seat 1"):
        commit_set_digest(MATCH, STEP, [c0, c1[:-1]])


# --------------------------------------------------------------------------- chance


def test_chance_reveal() -> None:
    commitment = chance_commitment(MATCH, "L2.R4", KEY, SALT)
    check_chance_reveal(commitment, MATCH, "L2.R4", KEY, SALT)
    with pytest.raises(BadMessage, match="does not open"):
        check_chance_reveal(commitment, MATCH, "L2.R4", KEY, bytes(32))
    with pytest.raises(BadMessage, match="does not open"):
        check_chance_reveal(commitment, MATCH, "L2.R5", KEY, SALT)
    with pytest.raises(BadMessage, match="does not open"):  # copied by another seat
        check_chance_reveal(commitment, MATCH, "L2.R4", bytes(32), SALT)


def test_chance_outcome_is_deterministic_and_depends_on_every_secret() -> None:
    assert chance_outcome_bytes(FIVE.id, SECRETS) == chance_outcome_bytes(FIVE.id, SECRETS)
    assert chance_outcome(FIVE, list(SECRETS)) == chance_outcome(FIVE, tuple(SECRETS))
    base = chance_outcome_bytes(FIVE.id, SECRETS)
    for seat in range(len(SECRETS)):
        changed = list(SECRETS)
        changed[seat] = changed[seat][:-1] + b"\xff"
        assert chance_outcome_bytes(FIVE.id, changed) != base
    assert chance_outcome_bytes(FIVE.id, SECRETS[::-1]) != base  # seat order matters
    assert chance_outcome_bytes("L2.R1", SECRETS) != base  # the event id is bound


def test_chance_outcome_changes_with_any_one_secret() -> None:
    """For each seat there is a change of its secret alone that changes the outcome."""
    rng = random.Random(2)
    secrets = [rng_bytes(rng) for _ in range(4)]
    base = chance_outcome(FIVE, secrets)
    for seat in range(4):
        outcomes = set()
        for _ in range(50):
            changed = list(secrets)
            changed[seat] = rng_bytes(rng)
            outcomes.add(chance_outcome(FIVE, changed))
        assert outcomes - {base}


def test_chance_outcome_is_roughly_uniform() -> None:
    rng = random.Random(3)
    counts = Counter(chance_outcome(FIVE, [rng_bytes(rng) for _ in range(3)])
                     for _ in range(3000))
    assert set(counts) == set(FIVE.outcomes)
    for outcome in FIVE.outcomes:  # expected 600 each; sd about 22
        assert 480 <= counts[outcome] <= 720, counts


@pytest.mark.parametrize("free_seat", [0, 1, 2, 3])
def test_no_coalition_short_of_all_fixes_the_outcome(free_seat: int) -> None:
    """All secrets but one fixed (a coalition of every other seat): the last secret alone
    still reaches every outcome."""
    rng = random.Random(10 + free_seat)
    fixed = [rng_bytes(rng) for _ in range(4)]
    reached = set()
    for _ in range(200):
        secrets = list(fixed)
        secrets[free_seat] = rng_bytes(rng)
        reached.add(chance_outcome(FIVE, secrets))
    assert reached == set(FIVE.outcomes)


def test_chance_outcome_bad_secrets() -> None:
    with pytest.raises(BadMessage, match="no secrets"):
        chance_outcome(FIVE, [])
    with pytest.raises(BadMessage, match="secret 1"):
        chance_outcome(FIVE, [bytes(32), bytes(16)])


def test_chance_set_digest() -> None:
    rng = random.Random(4)
    entries = [(event, seat, rng_bytes(rng))
               for event in ("L2.level", "L2.R1", "L2.R2") for seat in range(3)]
    base = chance_set_digest(MATCH, 2, entries)
    shuffled = list(entries)
    rng.shuffle(shuffled)
    assert chance_set_digest(MATCH, 2, shuffled) == base  # any order: digested sorted
    assert chance_set_digest(MATCH, 3, entries) != base
    assert chance_set_digest(bytes(32), 2, entries) != base
    assert chance_set_digest(MATCH, 2, entries[:-1]) != base
    forked = list(entries)
    forked[4] = (forked[4][0], forked[4][1], rng_bytes(rng))
    assert chance_set_digest(MATCH, 2, forked) != base
    swapped = list(entries)
    swapped[0], swapped[1] = ((entries[0][0], 1, entries[0][2]),
                              (entries[1][0], 0, entries[1][2]))
    assert chance_set_digest(MATCH, 2, swapped) != base
    # the documented form
    one = ("L2.R1", 2, bytes([7]) * 32)
    two = ("L2.R1", 10, bytes([8]) * 32)  # seats sort as numbers, not as text
    assert chance_set_digest(MATCH, 1, [two, one]) == H(
        "cryptcrawl/chance-set/v1", MATCH, 1, 2, *one, *two)
    assert chance_set_digest(MATCH, 1, []) == H("cryptcrawl/chance-set/v1", MATCH, 1, 0)


@pytest.mark.parametrize("entries", [
    [("L2.R1", 0, bytes(32)), ("L2.R1", 0, bytes([1]) * 32)],  # two for one slot
    [("L2.R1", -1, bytes(32))],
    [("L2.R1", True, bytes(32))],
    [("L2.R1", 0, bytes(31))],
    [(b"L2.R1", 0, bytes(32))],
    [("L2.R1", 0)],
])
def test_chance_set_digest_bad_entries(entries: list[tuple[str, int, bytes]]) -> None:
    with pytest.raises(BadMessage):
        chance_set_digest(MATCH, 2, entries)


# --------------------------------------------------------------------------- per-match secrets


def test_seat_secrets_are_deterministic_across_instances() -> None:
    """A restarted peer with the same seed derives the same bytes (and so re-sends them)."""
    first, again = SeatSecrets(SEED, MATCH, KEY), SeatSecrets(bytes(SEED), MATCH, KEY)
    for step in ("L1.R1.play", "L1.R1.followup", "L5.R5.play"):
        assert first.salt_for(step) == again.salt_for(step)
        assert len(first.salt_for(step)) == 32
    for event in ("setup.character.0", "setup.map", "L2.level", "L2.R4"):
        assert first.chance_secret(event) == again.chance_secret(event)
        assert len(first.chance_secret(event)) == 32


def test_seat_secrets_are_hkdf_sha256() -> None:
    """The derivation (one HMAC per value over a cached extract step) gives exactly HKDF-SHA256
    (RFC 5869, as cryptography computes it) with salt = match id, ikm = seed and info = the
    length-prefixed domain, seat key and label."""
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.kdf.hkdf import HKDF

    def prefixed(*parts: bytes) -> bytes:
        return b"".join(len(p).to_bytes(4, "big") + p for p in parts)

    rng = random.Random(11)
    for seed, match, key in ((SEED, MATCH, KEY), (rng_bytes(rng), rng_bytes(rng), rng_bytes(rng))):
        secrets = SeatSecrets(seed, match, key)
        for domain, derive in ((b"cryptcrawl/salt/v1", secrets.salt_for),
                               (b"cryptcrawl/chance-secret/v1", secrets.chance_secret),
                               (b"cryptcrawl/torch-key/v1", secrets.round_randomness)):
            for label in ("L1.R1.play", "setup.map", "", "é" * 40):
                want = HKDF(algorithm=hashes.SHA256(), length=32, salt=match,
                            info=prefixed(domain, key, label.encode())).derive(seed)
                assert derive(label) == want


def test_seat_secrets_are_distinct() -> None:
    rng = random.Random(5)
    values = set()
    labels = ["L1.R1.play", "L1.R2.play", "L2.level", "L2.R4", ""]
    for seed in (SEED, rng_bytes(rng)):
        for match in (MATCH, rng_bytes(rng)):
            for key in (KEY, rng_bytes(rng)):
                secrets = SeatSecrets(seed, match, key)
                for label in labels:
                    values.add(secrets.salt_for(label))
                    values.add(secrets.chance_secret(label))  # salt and secret differ too
    assert len(values) == 2 * 2 * 2 * len(labels) * 2


@pytest.mark.parametrize("bad", [bytes(31), bytes(33), b"", "x" * 32])
def test_seat_secrets_reject_a_bad_seed(bad: bytes) -> None:
    with pytest.raises(LocalProtocolError, match="seed"):
        SeatSecrets(bad, MATCH, KEY)
    with pytest.raises(LocalProtocolError, match="match id"):
        SeatSecrets(SEED, bad, KEY)
    with pytest.raises(LocalProtocolError, match="seat key"):
        SeatSecrets(SEED, MATCH, bad)


def test_seat_secrets_repr_hides_the_seed() -> None:
    text = repr(SeatSecrets(SEED, MATCH, KEY))
    assert SEED.hex() not in text and SEED.hex()[:8] not in text


# --------------------------------------------------------------------------- identities


def test_sign_and_verify() -> None:
    private = Ed25519PrivateKey.generate()
    public = public_key_bytes(private)
    assert len(public) == 32
    signature = sign(private, TEST_DOMAIN, b"hello")
    assert len(signature) == 64
    verify(public, TEST_DOMAIN, b"hello", signature)
    with pytest.raises(BadMessage, match="signature"):
        verify(public, TEST_DOMAIN, b"hello!", signature)
    with pytest.raises(BadMessage, match="signature"):
        verify(public, "cryptcrawl/other/v1", b"hello", signature)  # domain separation
    with pytest.raises(BadMessage, match="signature"):
        verify(public_key_bytes(Ed25519PrivateKey.generate()), TEST_DOMAIN, b"hello",
               signature)
    forged = bytes([signature[0] ^ 1]) + signature[1:]
    with pytest.raises(BadMessage, match="signature"):
        verify(public, TEST_DOMAIN, b"hello", forged)
    with pytest.raises(BadMessage, match="64 bytes"):
        verify(public, TEST_DOMAIN, b"hello", signature[:-1])
    with pytest.raises(BadMessage, match="32 bytes"):
        verify(public[:-1], TEST_DOMAIN, b"hello", signature)
    with pytest.raises(BadMessage):
        verify(b"\xff" * 32, TEST_DOMAIN, b"hello", signature)


def test_fingerprint_form() -> None:
    rng = random.Random(6)
    seen = set()
    for _ in range(50):
        text = fingerprint(rng_bytes(rng))
        groups = text.split("-")
        assert len(groups) == 5
        assert all(len(g) == 4 and g == g.lower() and int(g, 16) >= 0 for g in groups)
        seen.add(text)
    assert len(seen) == 50
    with pytest.raises(BadMessage):
        fingerprint(bytes(31))


def test_identity_helpers_refuse_other_keys() -> None:
    with pytest.raises(LocalProtocolError):
        public_key_bytes(b"x" * 32)  # type: ignore[arg-type]
    with pytest.raises(LocalProtocolError):
        sign(b"x" * 32, TEST_DOMAIN, b"")  # type: ignore[arg-type]


ELL = 2**252 + 27742317777372353535851937790883648493  # the order of the base point


def test_signatures_are_checked_under_the_strict_rules() -> None:
    """protocol.md §1.2: S < ℓ, R and A not of small order, A canonical.  Each forgery below
    satisfies the cofactorless equation (or would, modulo ℓ) and is refused."""
    from protocol.crypto import ed25519_valid

    message = b"any message at all"
    identity = (1).to_bytes(32, "little")  # the neutral point: of small order (order 1)
    # A = R = the neutral point, S = 0: [0]B = O + [k]O holds for every message, so this
    # "signature" needs no secret — a key anyone can sign for.
    weak = identity + bytes(32)
    assert not ed25519_valid(identity, weak, message)
    with pytest.raises(BadMessage, match="signature"):
        verify(identity, TEST_DOMAIN, b"hello", weak)
    # S + ℓ for a valid S: the same point, a non-canonical scalar (signature malleability).
    private = Ed25519PrivateKey.generate()
    public = public_key_bytes(private)
    good = private.sign(message)
    assert ed25519_valid(public, good, message)
    s = int.from_bytes(good[32:], "little") + ELL
    assert s < 2**256
    assert not ed25519_valid(public, good[:32] + s.to_bytes(32, "little"), message)
    # A non-canonical encoding of a key (y ≥ p): refused before any arithmetic.
    non_canonical = ((2**255 - 19) + 1).to_bytes(32, "little")  # y = p + 1 ≡ 1: the neutral
    assert not ed25519_valid(non_canonical, weak, message)
    assert not ed25519_valid(public[:31], good, message)
    assert not ed25519_valid(public, good[:63], message)
