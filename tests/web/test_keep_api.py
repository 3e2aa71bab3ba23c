"""The keep viewer's API: a world from a shipped scenario, advanced on request, watched."""

from __future__ import annotations

from web_kit import bearer, make_client

from undercroft.keep import World


def test_a_watched_world_is_the_world_run_keep_runs() -> None:
    client = make_client()
    made = client.post("/api/keep/worlds", json={"scenario": "trapworks", "seed": 4})
    assert made.status_code == 201
    url, token = f"/api/keep/worlds/{made.json()['id']}", made.json()["token"]
    assert client.get(f"{url}/view").status_code == 401
    assert client.get(f"{url}/view", headers=bearer("x" * 43)).status_code == 401
    for bad in ({"minutes": 0}, {"minutes": 10**9}, {"minutes": "1"}, [], {"next": 1}):
        assert client.post(f"{url}/advance", headers=bearer(token), json=bad).status_code == 422
    for _ in range(3):
        view = client.post(f"{url}/advance", headers=bearer(token), json={"minutes": 1440}).json()
    assert view["clock"]["minute"] == 3 * 1440
    world = World.from_scenario("trapworks", seed=4)
    world.run(3 * 1440)
    fired = sum(t["fired"] for t in view["traps"].values())
    assert fired == world.summary()["traps_fired"] and fired > 0
    assert {s["id"] for s in view["structures"]} == set(world.structures)
    beings = {b.id: [b.pos_at(world.now).x, b.pos_at(world.now).y] for b in world.present()}
    assert {b["id"]: b["pos"] for b in view["beings"]} == beings
    step = client.post(f"{url}/advance", headers=bearer(token), json={"next": True}).json()
    assert step["lines"] > view["lines"]
    assert client.post("/api/keep/worlds", json={"scenario": "../etc"}).status_code == 422
