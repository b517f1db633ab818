"""LAN discovery with zeroconf, mocked: nothing goes on any network."""

import zeroconf

from net.reach import discovery


class FakeZeroconf:
    registry: dict = {}

    def __init__(self, interfaces=None):
        self.interfaces = interfaces
        self.closed = False

    def register_service(self, info):
        FakeZeroconf.registry[info.name] = info

    def unregister_service(self, info):
        FakeZeroconf.registry.pop(info.name, None)

    def get_service_info(self, type_, name, timeout=0):
        return FakeZeroconf.registry.get(name)

    def close(self):
        self.closed = True


class FakeBrowser:
    def __init__(self, zc, type_, handlers):
        for name in list(FakeZeroconf.registry):
            for h in handlers:
                h(zeroconf=zc, service_type=type_, name=name, state_change=None)

    def cancel(self):
        pass


def test_a_table_is_announced_and_found(monkeypatch):
    monkeypatch.setattr(zeroconf, "ServiceBrowser", FakeBrowser)
    FakeZeroconf.registry.clear()
    advert = discovery.advertise(7531, "host-heuristic-1", 4, interfaces=["127.0.0.1"],
                                 zeroconf_class=FakeZeroconf)
    info = next(iter(FakeZeroconf.registry.values()))
    assert info.port == 7531 and info.type == discovery.SERVICE
    assert info.parsed_addresses() == ["127.0.0.1"]
    assert set(info.properties) == {b"players", b"proto"}       # never the join code
    tables = discovery.browse(timeout=0, interfaces=["127.0.0.1"], zeroconf_class=FakeZeroconf)
    assert tables == [discovery.Table("host-heuristic-1", "127.0.0.1:7531", 4)]
    advert.close()
    assert FakeZeroconf.registry == {}
    assert discovery.browse(timeout=0, zeroconf_class=FakeZeroconf) == []
