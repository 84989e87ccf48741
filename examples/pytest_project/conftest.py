# A project's own conftest, as many Triton projects have one: its own --device option and
# `device` fixture. tcpu's plugin adds neither, so nothing clashes.
import pytest
import triton


def pytest_addoption(parser):
    parser.addoption("--device", default=None, help="torch device (default: Triton's active one)")


@pytest.fixture(scope="session")
def device(request):
    return request.config.getoption("--device") or \
        triton.runtime.driver.active.get_active_torch_device()
