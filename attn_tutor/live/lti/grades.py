"""Grades back to the platform (LTI Assignment and Grade Services): each learner's score, with the
mistakes the marker diagnosed named in words, queued in the LTI store and sent by one thread.

Every :data:`GRADE_EVERY` seconds the sender reads each activity open in this process that has an AGS endpoint:
each learner's score (the sum of their latest answers' points, out of the set's items; none before
their first answer) is queued
when it is not what was queued last (:meth:`LtiStore.queue_score`; an exam's only once the teacher
has closed every problem); then every queued score is posted to the activity's one line item (the
launch's own, or the one the tool made, found again by its resource link and tag, never a second),
with the tool's access token (OAuth 2 client credentials with a signed JWT assertion, kept until it
expires). A platform that refuses or cannot be reached leaves the score queued, tried again later
(after 4, 8, … up to 60 seconds): nothing is dropped. The thread's HTTP calls never run on the event loop.
Under ``serve --workers`` every worker queues what changed in the activities it has open (the worker
that saved an answer has its activity open), and one, holding a PostgreSQL advisory lock, sends.
"""

from __future__ import annotations

import threading
import time
import urllib.parse

from attn_tutor.core.i18n import speaking, t
from attn_tutor.live.lti import keys
from attn_tutor.live.lti.http import HTTP_TIMEOUT, PlatformError, call
from attn_tutor.marking.marker import diagnosis_name
from attn_tutor.sessions.lti import Link, LtiStore, Score
from attn_tutor.sessions.store import CONCEPTS, LiveError

AGS = "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"
SCORE_SCOPE = "https://purl.imsglobal.org/spec/lti-ags/scope/score"
LINEITEM_SCOPE = "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem"
NRPS = "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice"
NRPS_SCOPE = "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly"
MEMBERSHIPS = "application/vnd.ims.lti-nrps.v2.membershipcontainer+json"
TAG = "attn-tutor"
GRADE_EVERY = 2.0  # seconds between two rounds: a changed score reaches the platform within 10 s
RETRY_MOST = 60.0  # seconds at most between two tries of a score the platform refused


def _scores_url(lineitem: str) -> str:
    parts = urllib.parse.urlsplit(lineitem)
    return urllib.parse.urlunsplit(parts._replace(path=parts.path.rstrip("/") + "/scores"))


class Grades:
    """The sender: one thread, started by :meth:`start`, stopped by :meth:`stop`. ``apps(link)``
    gives an open activity's live class (None: not open in this process)."""

    def __init__(self, store: LtiStore, apps, *, every: float = GRADE_EVERY) -> None:
        self.store, self.apps, self.every = store, apps, every
        self._tokens: dict[tuple[str, str, str], tuple[str, float]] = {}  # (issuer, client id, scopes) -> (token, expires at)
        self._next_try: dict[tuple[str, str], float] = {}
        self._seen: dict[str, int] = {}  # each activity's change number when its scores were last queued
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="attn-tutor lti grades", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(HTTP_TIMEOUT + 5)

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            try:
                self.queue_changed()  # every worker: the activities it has open (an answer's worker has its activity)
                if self.store.is_sender():  # one worker of serve --workers sends
                    self.send_queued()
            except LiveError:  # the store unreachable for a moment: the next round tries again
                continue

    def round(self) -> None:
        """Queue the changed scores of every open activity, then send what is queued."""
        self.queue_changed()
        self.send_queued()

    def queue_changed(self) -> None:
        for grading in self.store.grading():
            live = self.apps(grading.link)
            if live is not None:
                self.queue(grading.link, live)

    def send_queued(self) -> None:
        for score in self.store.queued():
            if self._next_try.get((score.link, score.sub), 0.0) <= time.monotonic():
                self.send(score)

    def queue(self, link: str, live) -> None:
        """``link``'s changed scores queued; nothing read when the session has not changed since (its change number)."""
        seq = live.store.changes()
        if self._seen.get(link) == seq:
            return
        session = live.session()
        if session.mode == "exam" and any(state.open for state in session.problems.values()):
            self._seen[link] = seq
            return  # an exam's scores go once the teacher has closed it (a control: a change)
        learners = self.store.learners(link)
        maximum = float(len(live.items))
        for student, _answered, score in live.store.roster():
            sub = learners.get(student.id)
            if sub is None:
                continue
            latest = live.store.latest(student.id)
            if not latest:
                continue  # opened, nothing answered yet: no score to give (a 0 "fully graded" would say they were marked)
            progress = "Completed" if len(latest) >= maximum else "InProgress"
            with speaking(live.lang):
                comment = self.comment(latest)
            self.store.queue_score(link, sub, round(float(score), 4), maximum, progress, comment)
        self._seen[link] = seq

    @staticmethod
    def comment(latest: dict) -> str:
        """The learner's diagnosed mistakes in words, each once (in the language spoken)."""
        codes = sorted({answer.diagnosis for (problem, _row, _stage), answer in latest.items()
                        if problem != CONCEPTS and answer.diagnosis and answer.verdict != "correct"})  # fmt: skip
        if not codes:
            return t("lti.score.no_mistakes")
        return t("lti.score.mistakes", names="; ".join(diagnosis_name(code) for code in codes))

    def token(self, link: Link, token_url: str, scopes: str = f"{SCORE_SCOPE} {LINEITEM_SCOPE}") -> str:
        """The tool's access token for the platform of ``link`` and ``scopes``: kept until a minute before it expires."""
        key = (link.issuer, link.client_id, scopes)
        found = self._tokens.get(key)
        if found is not None and found[1] > time.monotonic():
            return found[0]
        assertion = keys.sign(self.store, {"iss": link.client_id, "sub": link.client_id, "aud": token_url})
        answer = call("POST", token_url, form={
            "grant_type": "client_credentials", "client_assertion_type": "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
            "client_assertion": assertion, "scope": scopes,
        })  # fmt: skip
        if not isinstance(answer, dict) or not isinstance(answer.get("access_token"), str):
            raise PlatformError(f"POST {token_url}: no access_token")
        life = float(answer.get("expires_in") or 3600)
        self._tokens[key] = (answer["access_token"], time.monotonic() + max(0.0, life - 60))
        return answer["access_token"]

    def lineitem(self, link: Link, token: str, maximum: float) -> str:
        """The activity's one line item: the launch's own, or the tool's, found again by its resource link and tag, or made."""
        grading = next((g for g in self.store.grading() if g.link == link.link), None)
        if grading is not None and grading.lineitem:
            return grading.lineitem
        if grading is None or not grading.lineitems:
            raise PlatformError("no line item and no lineitems URL")
        container = "application/vnd.ims.lis.v2.lineitemcontainer+json"
        parts = urllib.parse.urlsplit(grading.lineitems)
        query = urllib.parse.urlencode({"resource_link_id": link.resource_link_id, "tag": TAG})
        found = call("GET", urllib.parse.urlunsplit(parts._replace(query=(parts.query + "&" if parts.query else "") + query)),
                      token=token, accept=container)  # fmt: skip
        items = [item for item in found or [] if isinstance(item, dict) and item.get("tag") == TAG
                 and item.get("resourceLinkId") == link.resource_link_id and isinstance(item.get("id"), str)]  # fmt: skip
        if items:
            url = items[0]["id"]
        else:
            made = call("POST", grading.lineitems, token=token, kind="application/vnd.ims.lis.v2.lineitem+json",
                         accept="application/vnd.ims.lis.v2.lineitem+json",
                         body={"scoreMaximum": maximum, "label": link.title, "resourceLinkId": link.resource_link_id, "tag": TAG})  # fmt: skip
            if not isinstance(made, dict) or not isinstance(made.get("id"), str):
                raise PlatformError(f"POST {grading.lineitems}: no line item id")
            url = made["id"]
        self.store.set_lineitem(link.link, url)
        return url

    def send(self, score: Score) -> None:
        """One queued score posted; refused or unreachable: kept, tried again later."""
        link = self.store.link(score.link)
        if link is None:
            return
        platform = next((p for p in self.store.platforms(link.issuer) if p.client_id == link.client_id), None)
        try:
            if platform is None:
                raise PlatformError(f"{link.issuer} is no longer registered")
            token = self.token(link, platform.token_url)
            lineitem = self.lineitem(link, token, score.maximum)
            call("POST", _scores_url(lineitem), token=token, kind="application/vnd.ims.lis.v1.score+json", body={
                "userId": score.sub, "scoreGiven": score.given, "scoreMaximum": score.maximum, "comment": score.comment,
                "activityProgress": score.progress, "gradingProgress": "FullyGraded", "timestamp": score.changed,
            })  # fmt: skip
        except PlatformError as error:
            self.store.score_failed(score, str(error))
            wait = min(RETRY_MOST, self.every * 2 ** min(score.tries + 1, 6))
            self._next_try[(score.link, score.sub)] = time.monotonic() + wait
            if "HTTP 401" in str(error):
                self._tokens.clear()  # a token the platform no longer takes
            return
        self._next_try.pop((score.link, score.sub), None)
        self.store.score_sent(score)


    def members(self, link_key: str) -> list[dict] | None:
        """The course's members (Names and Role Provisioning), as the platform lists them; None: the
        launches gave no roster service. Blocking (the platform's answer): call it in a worker thread."""
        url, link = self.store.roster_url(link_key), self.store.link(link_key)
        if url is None or link is None:
            return None
        platform = next((p for p in self.store.platforms(link.issuer) if p.client_id == link.client_id), None)
        if platform is None:
            raise PlatformError(f"{link.issuer} is no longer registered")
        found = call("GET", url, token=self.token(link, platform.token_url, NRPS_SCOPE), accept=MEMBERSHIPS)
        members = found.get("members") if isinstance(found, dict) else None
        return [m for m in members or [] if isinstance(m, dict) and isinstance(m.get("user_id"), str)]
