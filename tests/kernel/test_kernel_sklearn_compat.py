"""KernelPerceptron under scikit-learn's estimator checks (scikit-learn is a
test dependency only)."""
import warnings

import numpy as np
import pytest

sklearn = pytest.importorskip("sklearn")
from sklearn.model_selection import GridSearchCV  # noqa: E402
from sklearn.pipeline import make_pipeline  # noqa: E402
from sklearn.preprocessing import StandardScaler  # noqa: E402
from sklearn.utils.estimator_checks import parametrize_with_checks  # noqa: E402

from perceptron import ConvergenceWarning, KernelPerceptron  # noqa: E402
from perceptron.datasets import make_circles  # noqa: E402


@parametrize_with_checks([KernelPerceptron(max_iter=50),
                          KernelPerceptron(kernel="poly", degree=2, coef0=1.0, max_iter=50)])
def test_sklearn_estimator_checks(estimator, check):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        check(estimator)


def test_in_a_pipeline_and_a_grid_search():
    X, y = make_circles(200, noise=0.05, random_state=0)
    search = GridSearchCV(make_pipeline(StandardScaler(), KernelPerceptron(random_state=0)),
                          {"kernelperceptron__gamma": [0.01, 1.0]}, cv=3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        search.fit(X, y)
    assert search.best_params_["kernelperceptron__gamma"] in (0.01, 1.0)
    assert search.score(X, y) > 0.95
    assert np.isfinite(search.cv_results_["mean_test_score"]).all()


def test_dataframe_feature_names_are_kept():
    pd = pytest.importorskip("pandas")
    rng = np.random.default_rng(0)
    X = rng.standard_normal((60, 3))
    y = np.where(X[:, 0] * X[:, 1] > 0, 1, -1)
    df = pd.DataFrame(X, columns=["a", "b", "c"])
    model = KernelPerceptron(random_state=0, max_iter=5).fit(df, y)
    assert list(model.feature_names_in_) == ["a", "b", "c"]
    np.testing.assert_array_equal(model.predict(df), model.predict(X))
