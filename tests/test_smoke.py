def test_reference_episode_counts(client, demo):
    response = client.get("/episodes/the-cognitive-revolution/the-rl-fine-tuning-playbook/")
    assert "19 published claims" in response.content.decode()
