"""Training: the trainee's dealing and settling are checked against the engine."""

from __future__ import annotations

import csv
import io

from fastapi.testclient import TestClient

from controller.rules import CardNeed, pending

AUTH = {"Authorization": "Bearer test-dealer-token"}
# Dan banks.  Ann 10+6 must draw and busts on the king; Bob 10+7 sticks on 17
# and ties the bank's 17; Cat 2+3 draws 2, 4, 2 into a five-card trick.
TOP = ["TC", "TD", "2C", "TH", "6C", "7D", "3C", "7H", "KC", "2D", "4C", "2H"]


def test_a_scripted_deal_scores_each_kind_of_mistake(client: TestClient) -> None:
    body = {"rules": "house", "players": ["Ann", "Bob", "Cat", "Dan"], "seed": 1, "top": TOP}
    r = client.post("/api/training", json=body, headers=AUTH)
    assert r.status_code == 200, r.text
    sid = r.json()["id"]
    session = client.app.state.training.get(sid)
    first = True
    while session.phase == "deal":
        need = pending(session.state)
        assert isinstance(need, CardNeed)
        seat = "Bob" if first else need.recipient  # the very first card to the wrong seat
        first = False
        r = client.post(f"/api/training/{sid}/deal", json={"seat": seat, "face_up": need.face_up},
                        headers=AUTH)
        assert r.status_code == 200, r.text
    view = r.json()
    assert view["phase"] == "settle"
    hands = {s["name"]: s["hands"] for s in view["seats"]}
    assert hands["Ann"][0]["bust"] and len(hands["Cat"][0]["cards"]) == 5
    # Ann's bust was never exposed before the next card went out.
    assert view["by_kind"] == {"wrong_seat": 1, "bust_not_exposed": 1}

    result = session.state.last_result()
    net = result["net"]
    cat_stake = next(h["stake"] for h in result["hands"] if h["player"] == "Cat")
    bob_stake = next(h["stake"] for h in result["hands"] if h["player"] == "Bob")
    assert net["Bob"] == -bob_stake and net["Cat"] == 2 * cat_stake
    r = client.post(
        f"/api/training/{sid}/settle",
        json={"payouts": {"Ann": net["Ann"], "Bob": bob_stake, "Cat": cat_stake},
              "next_banker": "Ann"},
        headers=AUTH,
    )
    assert r.status_code == 200, r.text
    report = client.get(f"/api/training/{sid}/report").json()
    kinds = {k["kind"]: k["count"] for k in report["by_kind"]}
    assert kinds == {"wrong_seat": 1, "bust_not_exposed": 1, "paid_tie": 1,
                     "five_card_single": 1, "wrong_next_banker": 1}
    assert report["mistakes"] == 5 and 0 < report["score"] < 100
    tie = next(d for d in report["details"] if d["kind"] == "paid_tie")
    # The why of each payout, from the engine's settlement (worked out by hand in TOP's
    # comment): Bob's 17 ties the bank's 17, Cat's five-card trick is paid double.
    assert tie["correct"] == (
        f"Bob: collect {bob_stake:g} (stake {bob_stake:g} lost, a tie at 17 goes to the bank)"
    )
    five = next(d for d in report["details"] if d["kind"] == "five_card_single")
    assert five["correct"] == (
        f"Cat: pay {2 * cat_stake:g} (stake {cat_stake:g} × 2 for a five-card trick)"
    )

    rows = list(csv.reader(io.StringIO(client.get(f"/api/training/{sid}/report",
                                                  params={"format": "csv"}).text)))
    assert rows[0][:2] == ["deal", "kind"]
    assert sorted(r[1] for r in rows[1:6]) == sorted(kinds)


def test_exposing_a_hand_that_is_not_bust_is_a_mistake(client: TestClient) -> None:
    sid = client.post("/api/training", json={"players": ["Ann", "Bob", "Dan"], "seed": 2,
                                             "top": ["9C", "9D", "TH", "8C", "7D", "7H"]},
                      headers=AUTH).json()["id"]
    session = client.app.state.training.get(sid)
    while len(session.state.hand_views()[0].cards) < 1:
        need = pending(session.state)
        client.post(f"/api/training/{sid}/deal", json={"seat": need.recipient,
                                                       "face_up": need.face_up}, headers=AUTH)
    view = client.post(f"/api/training/{sid}/expose", json={"seat": "Ann", "hand": 1},
                       headers=AUTH).json()
    assert view["by_kind"] == {"wrong_exposure": 1}
    r = client.post(f"/api/training/{sid}/expose", json={"seat": "Zed", "hand": 1}, headers=AUTH)
    assert r.status_code == 409 and "no hand" in r.json()["message"]
    r = client.post(f"/api/training/{sid}/settle", json={"payouts": {}}, headers=AUTH)
    assert r.status_code == 409 and "Deal the cards first" in r.json()["message"]
    assert client.get("/api/training/nope").status_code == 404


def test_the_task_names_the_next_recipient_and_the_bank_is_marked_bust(
    client: TestClient,
) -> None:
    """Ann TC 9C sticks on 19; the bank TD 6D draws below 17 and the KD busts it (26),
    so Ann is paid her stake (worked out by hand).  The task line names each recipient
    in dealing order: Ann, the bank, Ann, the bank, the bank."""
    r = client.post("/api/training", json={"players": ["Ann", "Dan"], "seed": 1,
                                           "top": ["TC", "TD", "9C", "6D", "KD"]}, headers=AUTH)
    view = r.json()
    sid = view["id"]
    order = []
    while view["phase"] == "deal":
        order.append(view["task"])
        need = pending(client.app.state.training.get(sid).state)
        view = client.post(f"/api/training/{sid}/deal",
                           json={"seat": need.recipient, "face_up": need.face_up},
                           headers=AUTH).json()
    bank = "Next card to the bank (Dan). Expose any bust hand before you deal it."
    ann = "Next card to Ann. Expose any bust hand before you deal it."
    assert order == [ann, bank, ann, bank, bank]
    assert view["bank"]["bust"] is True and view["bank"]["total"] == 26
    assert "The bank (Dan) draws" in view["log"]
    assert "settle" in view["task"]
    stake = view["seats"][0]["hands"][0]["stake"]
    view = client.post(f"/api/training/{sid}/settle", json={"payouts": {}, "next_banker": "Dan"},
                       headers=AUTH).json()
    wrong = next(f for f in view["feedback"] if not f["ok"])
    assert wrong["correct"] == f"Ann: pay {stake:g} (stake {stake:g}, the bank is bust)"
    assert wrong["text"] == "Ann: nothing"
    r = client.post(f"/api/training/{sid}/end", headers=AUTH)
    assert r.status_code == 200
    assert client.get(f"/api/training/{sid}").json()["phase"] == "over"
    r = client.post(f"/api/training/{sid}/deal", json={"seat": "Ann", "face_up": False},
                    headers=AUTH)
    assert r.status_code == 409 and "ended" in r.json()["message"]


def test_a_shoot_session_puts_up_the_kitty_and_plays_on(client: TestClient) -> None:
    """Shoot rules need the banker's kitty before each deal: the simulated banker puts
    it up, so the session starts (it used to fail with a server error) and deals on."""
    r = client.post("/api/training", json={"rules": "shoot", "players": ["Ann", "Bob", "Dan"],
                                           "seed": 4}, headers=AUTH)
    assert r.status_code == 200, r.text
    view = r.json()
    assert view["rules"] == "shoot"
    assert any("kitty" in line for line in view["log"])
    sid = view["id"]
    session = client.app.state.training.get(sid)
    for deal in (1, 2):
        exposed: set[tuple[str, int]] = set()
        while view["phase"] == "deal":
            need = pending(session.state)
            assert isinstance(need, CardNeed)
            view = client.post(f"/api/training/{sid}/deal",
                               json={"seat": "bank" if need.to_bank else need.recipient,
                                     "face_up": need.face_up}, headers=AUTH).json()
            for seat in view["seats"]:
                for hand in seat["hands"]:
                    key = (seat["name"], hand["hand"])
                    if (view["phase"] == "deal" and hand["bust"] and not seat["banker"]
                            and key not in exposed):
                        exposed.add(key)
                        view = client.post(f"/api/training/{sid}/expose",
                                           json={"seat": key[0], "hand": key[1]},
                                           headers=AUTH).json()
        assert view["phase"] == "settle"
        result = session.state.last_result()
        view = client.post(f"/api/training/{sid}/settle",
                           json={"payouts": result["net"], "next_banker": result["next_banker"]},
                           headers=AUTH).json()
        assert view["mistakes"] == 0, view["feedback"]
        assert view["deal"] == deal + 1
